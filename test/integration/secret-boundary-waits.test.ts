/**
 * Waits are no match oracle (docs/security.md, "No match oracles"): with a secret typed into an editor
 * and filled into a field the page echoes, waiting for a piece of the secret answers exactly as waiting
 * for a piece that is not in it — browser_wait's text, code mode's waitForSelector('text=…') and
 * getByText(…).waitFor() — and no result or error holds the value. An error still quotes the caller's
 * own non-secret locator. Real Chromium, the loopback fixture site, MCP through the SDK client.
 */
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { exposesSecret, SECRET_PAGE } from './support/secret-boundary.js';

const SECRET = 'tokCANARY-7Qx9z';
const INSIDE = 'tokCAN';
const OUTSIDE = 'tokXAN';

const LATER_SCRIPT = `<script>
  let timer;
  document.getElementById('ed').addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => document.getElementById('plain').append(' Added later'), 1500);
  });
</script></body>`;

let site: FixtureServer;
let h: McpHarness;

const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'code'],
  secrets: { PASS: SECRET },
}));

test.beforeAll(({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  site.route('/sbw-form', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(SECRET_PAGE);
  });
  // The same page, which also shows a line a moment after the editor's last input.
  site.route('/sbw-later', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(SECRET_PAGE.replace('</body>', LATER_SCRIPT));
  });
  site.route('/sbw-plan', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>Plans</title><button>Buy</button>');
  });
});

type Ids = { sessionId: string; pageId: string };

/** A fresh page with the secret filled into the echoed field and typed into the editor. */
async function filledPage(path = '/sbw-form'): Promise<Ids> {
  const s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url(path) });
  await h.ok('browser_fill', { ...s, locator: { css: '#user' }, value: '{{secret:PASS}}' });
  await h.ok('browser_type', { ...s, locator: { css: '#ed' }, text: '{{secret:PASS}}' });
  return s;
}

/** What a call answered, with the operation id left out (it differs on every call). */
async function answer(name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await h.call(name, args);
  const text = result.content.map((part) => ('text' in part ? part.text : '')).join('');
  expect(exposesSecret(text, SECRET)).toBe(false);
  if (!result.isError) {
    const { operationId: _id, elapsedMs: _ms, ...rest } = result.structuredContent as Record<string, unknown>;
    return { ok: rest };
  }
  const { operationId: _id, ...error } = (JSON.parse(text) as { error: Record<string, unknown> }).error;
  return { error };
}

describe('browser_wait { text } is no match oracle', () => {
  test('a piece of the secret waits out its deadline like a piece outside it, present or absent', async () => {
    const s = await filledPage();
    const wait = (text: string, present?: boolean): Promise<unknown> =>
      answer('browser_wait', { ...s, text, timeoutMs: 2_500, ...(present === undefined ? {} : { present }) });
    const inside = await wait(INSIDE);
    expect(inside).toEqual(await wait(OUTSIDE));
    expect(inside).toMatchObject({ error: { code: 'OPERATION_TIMEOUT' } });
    expect(await wait(INSIDE, false)).toEqual(await wait(OUTSIDE, false));
    // Several texts: the secret's piece is not what matched.
    expect(await answer('browser_wait', { ...s, text: [INSIDE, 'Plain words'] })).toMatchObject({
      ok: { matched: 'Plain words' },
    });
    // The page's own words still end a wait, in the echo beside the secret too.
    expect(await wait('Signed in as')).toMatchObject({ ok: { matched: 'Signed in as' } });
    expect(await wait('Signed in as {{secret:PASS}}')).toMatchObject({
      error: { code: 'OPERATION_TIMEOUT' },
    });
  });

  test('a text the page shows later still ends the wait', async () => {
    const s = await filledPage('/sbw-later');
    const result = await h.ok<{ matched?: string }>('browser_wait', {
      ...s,
      text: 'Added later',
      timeoutMs: 30_000,
    });
    expect(result.matched).toBe('Added later');
  });
});

describe("code mode's waits are no match oracle", () => {
  test('waitForSelector(text=…), getByText().waitFor() and a filtered waitFor answer alike', async () => {
    const s = await filledPage();
    const probe = async (guess: string): Promise<unknown> => {
      const out = await h.ok<{ value: unknown }>('browser_run', {
        ...s,
        timeoutMs: 60_000,
        code: `
        const g = ${JSON.stringify(guess)};
        const code = async (f) => { try { await f(); return 'found'; } catch (e) { return e.code; } };
        return [
          await code(() => page.waitForSelector('text=' + g, { timeout: 1500 })),
          await code(() => page.getByText(g).waitFor({ timeout: 1500 })),
          await code(() => page.getByText(new RegExp('^Signed in as ' + g)).waitFor({ timeout: 1500 })),
          await code(() => page.locator('#parent').filter({ hasText: g }).waitFor({ timeout: 1500 })),
          await code(() => page.getByText(g).waitFor({ state: 'hidden', timeout: 1500 })),
          await code(() => page.waitForSelector('text=' + g, { state: 'detached', timeout: 1500 })),
          await page.locator('text=' + g).count(),
          await page.locator('xpath=//*[contains(., "' + g + '")]').count(),
        ];
      `,
      });
      expect(exposesSecret(out, SECRET)).toBe(false);
      return out.value;
    };
    const inside = await probe(INSIDE);
    expect(inside).toEqual(await probe(OUTSIDE));
    expect(inside).toEqual([
      'OPERATION_TIMEOUT',
      'OPERATION_TIMEOUT',
      'OPERATION_TIMEOUT',
      'OPERATION_TIMEOUT',
      'found',
      'found',
      0,
      0,
    ]);
    // The page's own words are still waited for and found.
    const own = await h.ok<{ value: unknown }>('browser_run', {
      ...s,
      timeoutMs: 60_000,
      code: `
        await page.waitForSelector('text=Plain words');
        await page.getByText('Signed in as').waitFor();
        await page.locator('#parent').filter({ hasText: 'Notes' }).waitFor({ state: 'attached' });
        return await page.getByText('Signed in as').textContent();
      `,
    });
    expect(own.value).toBe('Signed in as {{secret:PASS}}');
  });
});

describe('an error quotes the caller’s own locator in a session with secrets', () => {
  test('ELEMENT_NOT_FOUND for { label: "Plan" } names the label, not [redacted]', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/sbw-plan') });
    const error = await h.err('browser_click', { ...s, locator: { label: 'Plan' }, timeoutMs: 10_000 });
    expect(error.code).toBe('ELEMENT_NOT_FOUND');
    expect(error.message).toContain('Plan');
    expect(JSON.stringify(error)).not.toContain('[redacted]');
    const byText = await h.err('browser_click', {
      ...s,
      locator: { text: 'Annual plan' },
      timeoutMs: 10_000,
    });
    expect(byText.message).toContain('Annual plan');
  });
});
