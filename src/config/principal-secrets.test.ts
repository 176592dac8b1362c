/** Secrets per principal (`principal token [secrets-file]` lines): parsing, merging, refusals. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load.js';
import { everySecret, secretsFor } from './principal-secrets.js';
import { parseTokensFile } from './tokens-file.js';

const TOKEN_A = 'alice-token-0123456789abcdef';
const TOKEN_B = 'bob-token-0123456789abcdefgh';
const ALICE_VALUE = 'alice-Sup3r-value';
const SHARED_VALUE = 'server-wide-value';

/** A folder holding `tokens.txt` and the given files; returns the tokens file's path. */
function folder(tokens: string, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'bm-psecrets-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  writeFileSync(join(dir, 'tokens.txt'), tokens);
  return join(dir, 'tokens.txt');
}

function refusal(argv: string[]): ConfigError {
  try {
    loadConfig(argv, {});
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseTokensFile with a secrets file', () => {
  it('reads the optional third field, keeping the line number', () => {
    expect(parseTokensFile(`# c\nalice ${TOKEN_A} a.env\n\nbob ${TOKEN_B}\n`)).toEqual([
      { principal: 'alice', token: TOKEN_A, secretsFile: 'a.env', line: 2 },
      { principal: 'bob', token: TOKEN_B, line: 4 },
    ]);
  });

  it('refuses a fourth field and a second, different file for one principal, by line number', () => {
    expect(() => parseTokensFile(`alice ${TOKEN_A} a.env extra`)).toThrow(/^line 1 must be/);
    expect(() => parseTokensFile(`alice ${TOKEN_A} a.env\nalice ${TOKEN_B} b.env`)).toThrow(
      /^line 2 names a second secrets file for principal alice$/,
    );
    // The same file on two of a principal's lines is one file.
    expect(parseTokensFile(`alice ${TOKEN_A} a.env\nalice ${TOKEN_B} a.env`)).toHaveLength(2);
  });
});

describe('loadConfig with per-principal secrets', () => {
  it('reads each named file relative to the tokens file, keeping tokens free of it', () => {
    const path = folder(`alice ${TOKEN_A} secrets/alice.env\nbob ${TOKEN_B}\n`, {
      'secrets/alice.env': `# alice\nPW=${ALICE_VALUE}\n`,
    });
    const { config } = loadConfig(['--tokens-file', path], {});
    expect(config.httpTokens).toEqual([
      { principal: 'alice', token: TOKEN_A },
      { principal: 'bob', token: TOKEN_B },
    ]);
    expect(config.principalSecrets).toEqual({ alice: { PW: ALICE_VALUE } });
  });

  it("gives a principal the server-wide secrets plus its own, its own value winning; others the server's", () => {
    const path = folder(`alice ${TOKEN_A} alice.env\nbob ${TOKEN_B}\n`, {
      'alice.env': `PW=${ALICE_VALUE}\nMINE=only-alice-has-it\n`,
      'server.env': `PW=${SHARED_VALUE}\nAPI=server-api-value\n`,
    });
    const server = join(path, '..', 'server.env');
    const { config } = loadConfig(['--tokens-file', path, '--secrets', server], {});
    expect(secretsFor(config, 'alice')).toEqual({
      PW: ALICE_VALUE,
      MINE: 'only-alice-has-it',
      API: 'server-api-value',
    });
    expect(secretsFor(config, 'bob')).toBe(config.secrets);
    expect(secretsFor(config, 'default')).toBe(config.secrets);
    expect(secretsFor(config, undefined)).toBe(config.secrets);
    // One object per principal: the redaction caches its tables by identity.
    expect(secretsFor(config, 'alice')).toBe(secretsFor(config, 'alice'));
    // The operator's view knows every value, clashing names included.
    expect(everySecret(config)).toEqual(
      expect.arrayContaining([
        [SHARED_VALUE, 'PW'],
        [ALICE_VALUE, 'PW'],
        ['only-alice-has-it', 'MINE'],
      ]),
    );
  });

  it('refuses an unreadable or malformed secrets file naming the line and principal, never a value', () => {
    const missing = refusal(['--tokens-file', folder(`bob ${TOKEN_B}\nalice ${TOKEN_A} nowhere.env`)]);
    expect(missing.message).toContain('line 2: the secrets file of principal alice cannot be read');
    const bad = refusal([
      '--tokens-file',
      folder(`alice ${TOKEN_A} alice.env`, {
        'alice.env': `PW=${ALICE_VALUE}\nnot a secret line ${ALICE_VALUE}\n`,
      }),
    ]);
    expect(bad.message).toContain('line 1: the secrets file of principal alice: line 2 must be NAME=value');
    for (const error of [missing, bad]) {
      expect(error.message).not.toContain(ALICE_VALUE);
      expect(error.message).not.toContain(TOKEN_A);
      expect(error.message).not.toContain('nowhere.env');
    }
  });
});
