import { describe, expect, it } from 'vitest';
import { REDACTED, scrubTraceEntry } from './trace-scrub.js';

const scrub = { secrets: { PW: 's3cret value' }, derived: [['typed-pass', 'PASSWORD'] as const] };
const text = (name: string, value: string): string =>
  scrubTraceEntry(name, Buffer.from(value), scrub).toString('utf8');

describe('trace scrubbing', () => {
  it('replaces credential headers and cookie values in network lines, keeps the rest', () => {
    const line = JSON.stringify({
      snapshot: {
        request: {
          headers: [
            { name: 'Authorization', value: 'Bearer abc' },
            { name: 'Accept', value: 'text/html' },
          ],
          cookies: [{ name: 'sid', value: 'c00kie' }],
        },
        response: { headers: [{ name: 'set-cookie', value: 'sid=c00kie' }] },
      },
    });
    const out = text('trace.network', `${line}\n`);
    expect(out).not.toContain('Bearer abc');
    expect(out).not.toContain('c00kie');
    expect(out).toContain('text/html');
    expect(out.split(REDACTED)).toHaveLength(4);
  });

  it('redacts secrets (in their encoded forms too) and typed secret-field values', () => {
    const line = JSON.stringify({
      params: { value: 's3cret value', text: 'typed-pass' },
      url: '/?q=s3cret+value',
    });
    const out = text('trace.trace', line);
    expect(out).not.toMatch(/s3cret|typed-pass/);
    expect(out).toContain('{{secret:PW}}');
    expect(text('resources/a.html', '<input value="s3cret value">')).toBe('<input value="{{secret:PW}}">');
  });

  it('leaves binary entries untouched', () => {
    const bytes = Buffer.from([0xff, 0xd8, 0, ...Buffer.from('s3cret value')]);
    expect(scrubTraceEntry('resources/a.jpeg', bytes, scrub).equals(bytes)).toBe(true);
  });
});
