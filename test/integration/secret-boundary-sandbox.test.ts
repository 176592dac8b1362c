/**
 * The sandbox sits on the agent's side of the secrets boundary (docs/security.md, "The sandbox
 * boundary"): every value a code-mode call hands the script is redacted first, so no transform
 * (reverse, split, decodeURIComponent) brings a secret back; a title is redacted before it is cut;
 * no match count (browser_find, getByText().count(), selectText) depends on a secret. Real Chromium,
 * the loopback fixture site, MCP through the SDK client, a `--secrets`-style session secret.
 */
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { exposesSecret, SECRET_PAGE } from './support/secret-boundary.js';

const SECRET = 'tokCANARY-7Qx9z';

let site: FixtureServer;
let h: McpHarness;

const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'code'],
  secrets: { PASS: SECRET },
}));

test.beforeAll(({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  site.route('/sb-form', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(SECRET_PAGE);
  });
  site.route('/sb-done', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>Done</title><p id="done">Submitted</p>');
  });
});

type Ids = { sessionId: string; pageId: string };
const run = async <T>(s: Ids, code: string): Promise<T> =>
  (await h.ok<{ value: T }>('browser_run', { ...s, timeoutMs: 60_000, code })).value;

/** A fresh page with the secret filled into the form field and typed into the editor. */
async function filledPage(): Promise<Ids> {
  const s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/sb-form') });
  await h.ok('browser_fill', { ...s, locator: { css: '#user' }, value: '{{secret:PASS}}' });
  await h.ok('browser_type', { ...s, locator: { css: '#ed' }, text: '{{secret:PASS}}' });
  return s;
}

describe('what enters the sandbox has crossed the boundary', () => {
  test('snapshot, texts, title and the all* reads reach the script redacted, whatever it does to them', async () => {
    const s = await filledPage();
    const out = await run<Record<string, unknown>>(
      s,
      `
      const snap = await page.snapshot();
      const parent = await page.locator('#parent').textContent();
      const inner = await page.locator('#parent').innerText();
      const all = await page.locator('div').allTextContents();
      const allInner = await page.locator('p, span, div').allInnerTexts();
      const title = await page.title();
      const echo = await page.getByText('Signed in as').textContent();
      const value = await page.locator('#user').inputValue();
      return {
        snapshot: [...snap].reverse().join(''),
        parent: parent.split(''),
        inner: [...inner].reverse(),
        all: all.join('|').split('').reverse().join(''),
        allInner: JSON.stringify(allInner),
        title: [...title].reverse().join(''),
        echo: echo.split(''),
        value: [...value].reverse().join(''),
        sawReference: snap.includes('{{secret:PASS}}') && parent.includes('{{secret:PASS}}'),
      };
    `,
    );
    expect(out.sawReference).toBe(true);
    expect(exposesSecret(out, SECRET)).toBe(false);
    // The file's first run also starts a sandbox worker: room for a loaded machine.
  }, 120_000);

  test('page.url() after a GET form submit: decoded and split, the secret stays its reference', async () => {
    const s = await filledPage();
    const out = await run<{ parts: string[]; url: string; reversed: string }>(
      s,
      `
      await page.locator('#send').click();
      await page.waitForURL('**/sb-done**');
      const url = page.url();
      return {
        url: await url,
        parts: decodeURIComponent((await url).split('user=')[1] || '').split(''),
        reversed: [...decodeURIComponent(await url)].reverse().join(''),
      };
    `,
    );
    expect(out.parts.join('')).toContain('{{secret:PASS}}');
    expect(exposesSecret(out, SECRET)).toBe(false);
  });

  test('a title holding a secret is redacted before it is cut: no head of it in any face', async () => {
    const s = await filledPage();
    const tool = await h.ok<{ title: string }>('browser_get_title', s);
    const script = await run<string>(s, 'return (await page.title()).split("").reverse().join("");');
    expect(tool.title.endsWith('…')).toBe(true);
    expect(exposesSecret({ tool, script }, SECRET)).toBe(false);
  });
});

describe('no match oracles', () => {
  test('browser_find text and regex answer the same for a guess in the secret and one outside it', async () => {
    const s = await filledPage();
    const count = async (args: Record<string, unknown>): Promise<number> =>
      (await h.ok<{ total: number }>('browser_find', { ...s, ...args })).total;
    expect(await count({ text: 'tokCAN' })).toBe(await count({ text: 'tokXAN' }));
    expect(await count({ regex: '/tokC/' })).toBe(await count({ regex: '/tokX/' }));
    expect(await count({ regex: '/Signed in as tokC/i' })).toBe(
      await count({ regex: '/Signed in as tokX/i' }),
    );
    // The page's ordinary text still matches.
    expect(await count({ text: 'Signed in as' })).toBeGreaterThan(0);
  });

  test("code mode's getByText / filter counts, all* lengths and isVisible carry nothing about the secret", async () => {
    const s = await filledPage();
    const probe = (guess: string): Promise<unknown[]> =>
      run<unknown[]>(
        s,
        `
        const g = ${JSON.stringify(guess)};
        return [
          await page.getByText(g).count(),
          await page.getByText(new RegExp('^Signed in as ' + g)).count(),
          await page.locator('span').filter({ hasText: g }).count(),
          await page.locator('span').filter({ hasNotText: g }).count(),
          (await page.getByText(g).allTextContents()).length,
          await page.getByText(g).isVisible(),
        ];
      `,
      );
    expect(await probe('tokCAN')).toEqual(await probe('tokXAN'));
    expect(await run<number>(s, "return await page.getByText('Signed in as').count();")).toBe(1);
  });

  test('a single-element call on a text locator finds what it would find with the secrets redacted', async () => {
    const s = await filledPage();
    const probe = (guess: string): Promise<unknown[]> =>
      run<unknown[]>(
        s,
        `
        const g = ${JSON.stringify(guess)};
        const code = async (f) => { try { await f(); return 'found'; } catch (e) { return e.code; } };
        return [
          await code(() => page.getByText(g).textContent()),
          await code(() => page.getByText(new RegExp('^Signed in as ' + g)).click()),
          await code(() => page.locator('span').filter({ hasText: g }).innerText()),
        ];
      `,
      );
    const inside = await probe('tokCAN');
    expect(inside).toEqual(await probe('tokXAN'));
    expect(inside).toEqual(['ELEMENT_NOT_FOUND', 'ELEMENT_NOT_FOUND', 'ELEMENT_NOT_FOUND']);
    // The page's own words still find the element, whose text comes back redacted.
    expect(await run<string>(s, "return await page.getByText('Signed in as').textContent();")).toBe(
      'Signed in as {{secret:PASS}}',
    );
  });

  test('selectText refuses an element holding a secret with one stable error, and still selects elsewhere', async () => {
    const s = await filledPage();
    for (const css of ['#ed', '#echo', '#user']) {
      const guesses = await Promise.all(
        ['tokC', 'tokX'].map((text) => h.err('browser_focus', { ...s, locator: { css }, selectText: text })),
      );
      for (const error of guesses) {
        expect(error.code).toBe('INVALID_ARGUMENT');
        expect(error.details).toMatchObject({ field: 'selectText', reason: 'secret_filled' });
      }
      expect(guesses[0]?.message).toBe(guesses[1]?.message);
    }
    const scripted = await run<string[]>(
      s,
      `
      const codes = [];
      for (const g of ['tokC', 'tokX']) {
        try { await page.locator('#ed').selectText({ text: g }); codes.push('ok'); } catch (e) { codes.push(e.code); }
      }
      return codes;
    `,
    );
    expect(scripted).toEqual(['INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
    await h.ok('browser_focus', { ...s, locator: { css: '#plain' }, selectText: 'words' });
  });
});
