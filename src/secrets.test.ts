import { describe, expect, it } from 'vitest';
import { parseSecretsFile, redactSecrets, redactSecretsDeep, resolveSecret } from './secrets.js';

describe('secrets', () => {
  const secrets = { PW: 'correct-horse', PW_LONG: 'correct-horse-battery' };

  it('resolves only exact references and refuses unknown names without echoing them', () => {
    expect(resolveSecret(secrets, '{{secret:PW}}', 'value')).toBe('correct-horse');
    expect(resolveSecret(secrets, 'x{{secret:PW}}', 'value')).toBe('x{{secret:PW}}');
    expect(() => resolveSecret(secrets, '{{secret:toString}}', 'value')).toThrow(/value/);
    expect(() => resolveSecret(secrets, '{{secret:NOPE}}', 'text')).not.toThrow(/NOPE/);
  });

  it('replaces values by references, longest first, deep in results', () => {
    expect(redactSecrets(secrets, 'a correct-horse-battery b correct-horse')).toBe(
      'a {{secret:PW_LONG}} b {{secret:PW}}',
    );
    expect(redactSecretsDeep(secrets, { v: ['correct-horse'], n: 1 })).toEqual({
      v: ['{{secret:PW}}'],
      n: 1,
    });
  });

  it('parses NAME=value lines and names a bad line by number only', () => {
    expect(parseSecretsFile('# c\nA=1=2\n\nB_2= x ')).toEqual({ A: '1=2', B_2: ' x ' });
    expect(() => parseSecretsFile('A=1\nnot a line hunter2')).toThrow('line 2 must be NAME=value');
    expect(() => parseSecretsFile('A=1\nnot a line hunter2')).not.toThrow(/hunter2/);
  });
});
