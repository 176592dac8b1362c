import { describe, expect, it } from 'vitest';
import type { CodeModeBackend } from './backend.js';
import type { FacadeCall } from './facade-parse.js';
import { runScript } from './sandbox.js';

/** RegExps where Playwright takes them (waitForURL, getBy*Text) and text lists. */

async function run(code: string): Promise<{ calls: FacadeCall[]; ok: boolean; message: string }> {
  const calls: FacadeCall[] = [];
  const backend: CodeModeBackend = {
    invoke: (call) => {
      calls.push(call);
      return Promise.resolve(null);
    },
  };
  const result = await runScript(code, backend, {
    signal: new AbortController().signal,
    deadline: Date.now() + 10_000,
  });
  return { calls, ok: result.ok, message: result.ok ? '' : result.error.message };
}

describe('code-mode RegExp and list arguments', () => {
  it('passes a RegExp to waitForURL and getByText as source and flags', async () => {
    const { calls, ok, message } = await run(
      `await page.waitForURL(/\\/done\\?id=\\d+$/); await page.getByText(/saved/i).click();`,
    );
    expect(ok, message).toBe(true);
    expect(calls[0]).toMatchObject({ op: 'waitForURL', url: { source: '\\/done\\?id=\\d+$', flags: '' } });
    expect(calls[1]).toMatchObject({
      target: { base: { kind: 'text', text: { source: 'saved', flags: 'i' } } },
    });
  });

  it('turns a list of texts into one any-of pattern, escaped, with exact honoured', async () => {
    const { calls } = await run(
      `await page.getByText(['Success', 'Error (1)']).click(); await page.getByText(['a.b'], { exact: true }).click();`,
    );
    expect(calls[0]).toMatchObject({
      target: { base: { text: { source: 'Success|Error \\(1\\)', flags: 'i' } } },
    });
    const exact = calls[1];
    const pattern =
      exact && 'target' in exact ? (exact.target?.base as { text: { source: string } }).text : undefined;
    expect(new RegExp(pattern?.source ?? '').test('a.b')).toBe(true);
    expect(new RegExp(pattern?.source ?? '').test('a.b and more')).toBe(false);
    expect(new RegExp(pattern?.source ?? '').test('axb')).toBe(false);
  });

  it.each([
    [`await page.waitForURL(/(a+)+$/)`, 'nested quantifier'],
    [`await page.waitForURL(/x/g)`, 'flags i, m, s and u'],
    [`await page.getByText([]).click()`, 'must list 1 to 10 texts'],
    [`await page.getByText([1]).click()`, "argument 'text' must be a string, got a number"],
    [`await page.getByText(new RegExp('a'.repeat(600))).click()`, 'too long a RegExp'],
  ])('refuses %s', async (code, expected) => {
    const { ok, message, calls } = await run(code);
    expect(ok).toBe(false);
    expect(message).toContain(expected);
    expect(calls).toHaveLength(0);
  });
});
