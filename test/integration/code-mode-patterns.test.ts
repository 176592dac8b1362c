import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

/** Text waits and script errors through browser_run on real Chromium: RegExps, text lists, and errors that name the cause. */

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const run = async (code: string): Promise<unknown> =>
  (await h.ok<{ value: unknown }>('browser_run', { ...s, code, timeoutMs: 30_000 })).value;

describe('browser_run patterns', () => {
  test('waitForURL takes a RegExp; getByText a RegExp or a list (inside shadow roots too)', async () => {
    const value = await run(
      [
        `await page.goto('${site.origin}/real/components?ms=300');`,
        `await page.waitForURL(/\\/real\\/components\\?ms=\\d+$/);`,
        `await page.getByText(['Filter: failed', 'Filter: open']).waitFor();`,
        `const shadow = await page.getByText(/shadow ORDER list/i).innerText();`,
        `return { shadow, url: page.url() };`,
      ].join('\n'),
    );
    expect(value).toMatchObject({ shadow: 'Shadow order list' });
  });

  test('a RegExp that never matches times out; a dangerous one is refused before running', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/real/components') });
    const late = await h.err('browser_run', {
      ...s,
      code: `await page.waitForURL(/never-here/, { timeout: 500 });`,
    });
    expect(late.code).toBe('OPERATION_TIMEOUT');
    const refused = await h.err('browser_run', { ...s, code: `await page.waitForURL(/(a+)+b/);` });
    // Argument errors in a script are INVALID_ARGUMENT naming the member and the argument, as on every face.
    expect(refused.code).toBe('INVALID_ARGUMENT');
    expect(refused.message).toContain('nested quantifier');
  });

  test("a script's own exception message reaches the agent", async () => {
    const error = await h.err('browser_run', { ...s, code: 'return nonExistentVariable + 1;' });
    expect(error.message).toMatch(/nonExistentVariable'? is not defined/);
  });
});
