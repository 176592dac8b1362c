/** The tokens file (`--tokens-file`): principals and tokens, refusals by line number only. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load.js';

const TOKEN_A = 'alice-token-0123456789abcdef';
const TOKEN_B = 'bob-token-0123456789abcdefgh';

function tokensFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'bm-tokens-')), 'tokens.txt');
  writeFileSync(path, text);
  return path;
}

function refusal(text: string): ConfigError {
  try {
    loadConfig(['--tokens-file', tokensFile(text)], {});
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('tokens file', () => {
  it('reads principal/token lines, skipping comments and blank lines', () => {
    const path = tokensFile(`# team tokens\nalice ${TOKEN_A}\n\nbob ${TOKEN_B}\n`);
    expect(loadConfig(['--tokens-file', path], {}).config.httpTokens).toEqual([
      { principal: 'alice', token: TOKEN_A },
      { principal: 'bob', token: TOKEN_B },
    ]);
  });

  it("refuses the operator's reserved principals and bad lines by number, never echoing a token", () => {
    for (const [text, line] of [
      [`default ${TOKEN_A}`, 1],
      [`alice ${TOKEN_A}\nlocal ${TOKEN_B}`, 2],
      [`alice short`, 1],
      [`alice ${TOKEN_A}\nbob ${TOKEN_A}`, 2],
    ] as const) {
      const error = refusal(text);
      expect(error.message).toContain(`line ${line}`);
      expect(error.message).not.toContain(TOKEN_A);
      expect(error.message).not.toContain(TOKEN_B);
    }
  });
});
