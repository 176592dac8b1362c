/**
 * Session state and text selection in code mode, through the MCP client on a real Chromium and the loopback fixture:
 * page/context.route (fulfil, abort, continue; still under the URL policy, with 127.0.0.2 configured
 * as the blocked alias), context cookies with redaction, page.emulateMedia and locator.selectText.
 */
import { beforeEach } from 'vitest';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

const SECRET = 'sekrit-cookie-0042';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'code', 'network'],
  // A loopback alias stands in for a host the policy blocks (no traffic leaves loopback).
  blockedAddresses: ['127.0.0.2/32'],
  secrets: { API_KEY: SECRET },
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});
beforeEach(async () => {
  await h.ok('browser_route', { sessionId: s.sessionId, action: 'remove' });
});

// A generous run timeout: the machine may be busy; nothing waits on it unless something hangs.
const run = async <T>(code: string): Promise<T> =>
  (await h.ok<{ value: T }>('browser_run', { ...s, timeoutMs: 60_000, code })).value;
const runError = (code: string) => h.err('browser_run', { ...s, timeoutMs: 60_000, code });
const evaluate = <T>(fn: () => T | Promise<T>): Promise<T> =>
  h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', ({ page }) => page.page.evaluate(fn));
/** What a fetch from the page gets back: status and body text, or the network error. */
const fetchFromPage = (url: string) =>
  h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', ({ page }) =>
    page.page.evaluate(async (target) => {
      try {
        const response = await fetch(target);
        return { status: response.status, body: await response.text() };
      } catch (error) {
        return { error: String(error) };
      }
    }, url),
  );

describe('code mode: page.route / context.route', () => {
  test('fulfils a page the browser then shows, aborts, continues with headers; routes outlive the script', async () => {
    site.route('/echo-mesh-header', (req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(String(req.headers['x-mesh-test'] ?? 'none'));
    });
    const out = await run<{ heading: string; aborted: string }>(`
      await page.route('**/mocked-page', route => route.fulfill({ contentType: 'text/html', body: '<h1 id="m">Mocked here</h1>' }));
      await context.route('**/api/data', { status: 201, json: { mocked: true } });
      await page.context().route(/\\/gone$/, route => route.abort('connectionrefused'));
      await page.route('**/echo-mesh-header', route => route.continue({ headers: { 'x-mesh-test': 'yes' } }));
      await page.goto(${JSON.stringify(site.url('/mocked-page'))});
      const heading = await page.locator('#m').textContent();
      let aborted = 'not aborted';
      try { await page.goto(${JSON.stringify(site.url('/gone'))}); } catch (e) { aborted = e.code; }
      return { heading, aborted };
    `);
    expect(out.heading).toBe('Mocked here');
    expect(out.aborted).toMatch(/^[A-Z_]+$/);
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    expect(await fetchFromPage('/api/data')).toEqual({ status: 201, body: '{"mocked":true}' });
    expect((await fetchFromPage('/gone')).error).toMatch(/TypeError/);
    expect(await fetchFromPage('/echo-mesh-header')).toEqual({ status: 200, body: 'yes' });
    const listed = await h.ok<{ routes: { url: string; action: string; hits: number }[] }>('browser_route', {
      sessionId: s.sessionId,
    });
    expect(listed.routes.map((r) => [r.url, r.action])).toEqual([
      ['**/mocked-page', 'fulfill'],
      ['**/api/data', 'fulfill'],
      ['/\\/gone$/', 'abort'],
      ['**/echo-mesh-header', 'continue'],
    ]);
    expect(listed.routes[1]?.hits).toBe(1);
    // unroute by the same pattern, then unrouteAll.
    await run(`await page.unroute('**/api/data'); return 1;`);
    expect(JSON.parse((await fetchFromPage('/api/data')).body ?? '{}')).toMatchObject({ ok: true });
    await run(`await context.unrouteAll(); return 1;`);
    expect((await h.ok<{ routes: unknown[] }>('browser_route', { sessionId: s.sessionId })).routes).toEqual(
      [],
    );
  });

  test('keeps the URL policy: a blocked host is refused, a catch-all route never answers for it', async () => {
    const blocked = `http://127.0.0.2:${new URL(site.origin).port}`;
    const out = await run<{ refused: string; policy: string }>(`
      let refused = 'allowed';
      try { await page.route(${JSON.stringify(`${blocked}/**`)}, { body: 'x' }); } catch (e) { refused = e.code; }
      await page.route('**/*', { body: 'mocked everywhere' });
      let policy = 'loaded';
      try { await page.goto(${JSON.stringify(`${blocked}/`)}); } catch (e) { policy = e.code; }
      return { refused, policy };
    `);
    expect(out.refused).toBe('INVALID_ARGUMENT');
    expect(out.policy).not.toBe('loaded');
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    expect((await fetchFromPage(`${blocked}/api/data`)).error).toMatch(/TypeError/);
    expect((await fetchFromPage('/api/data')).body).toBe('mocked everywhere');
  });

  test('refuses bad routes with coded errors; the script and the session go on', async () => {
    const codes = await run<string[]>(`
      const codes = [];
      const attempts = [
        () => page.route('**/x', route => route.fulfill({ status: 200, bogus: 1 })),
        () => page.route('**/x', route => route.request().method() === 'GET' ? route.abort() : route.continue()),
        () => page.route('**/x', { body: 'x'.repeat(200001) }),
      ];
      for (const attempt of attempts) {
        try { await attempt(); codes.push('ok'); } catch (e) { codes.push(e.code); }
      }
      await page.route('**/x', { status: 204 });
      return codes;
    `);
    expect(codes).toEqual(['INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
    const uncaught = await runError(`await page.route('**/y', { body: 'x'.repeat(300000) });`);
    expect(uncaught.code).toBe('INVALID_ARGUMENT');
    expect(uncaught.message).toContain('arguments are too large');
    const listed = await h.ok<{ routes: { url: string }[] }>('browser_route', { sessionId: s.sessionId });
    expect(listed.routes.map((r) => r.url)).toEqual(['**/x']);
  });
});

describe('code mode: context cookies', () => {
  test('adds, lists (credential-named and --secrets values redacted in any encoding) and clears', async () => {
    const url = site.url('/');
    const out = await run<{
      listed: { name: string; value: string; redacted?: true }[];
      reversed: string[];
    }>(`
      await context.addCookies([
        { name: 'theme', value: 'dark', url: ${JSON.stringify(url)} },
        { name: 'session_id', value: 'abc123xyz', url: ${JSON.stringify(url)}, httpOnly: true },
        { name: 'plain', value: ${JSON.stringify(SECRET)}, domain: '127.0.0.1', path: '/' },
      ]);
      const listed = await context.cookies(${JSON.stringify(url)});
      // A script re-encoding what it read must still not carry a secret out.
      const reversed = listed.map((c) => c.value.split('').reverse().join(''));
      return { listed, reversed };
    `);
    const byName = new Map(out.listed.map((c) => [c.name, c]));
    expect(byName.get('theme')?.value).toBe('dark');
    expect(byName.get('session_id')).toMatchObject({ value: '[redacted]', redacted: true });
    expect(byName.get('plain')?.value).not.toContain(SECRET);
    const text = JSON.stringify(out);
    for (const hidden of [SECRET, 'abc123xyz', [...SECRET].reverse().join(''), 'zyx321cba'])
      expect(text).not.toContain(hidden);

    const after = await run<string[][]>(`
      const names = async () => (await context.cookies()).map((c) => c.name).sort();
      const steps = [await names()];
      await context.clearCookies({ name: 'theme' });
      steps.push(await names());
      await context.clearCookies({ domain: '127.0.0.1' });
      steps.push(await names());
      return steps;
    `);
    expect(after).toEqual([['plain', 'session_id', 'theme'], ['plain', 'session_id'], []]);
  });

  test('refuses a bad cookie and a blocked host by code, setting none of the batch', async () => {
    const url = site.url('/');
    const out = await run<{ codes: string[]; names: string[] }>(`
      const codes = [];
      const tries = [
        [{ name: 'ok', value: '1', url: ${JSON.stringify(url)} }, { name: 'bad name', value: 'x', url: ${JSON.stringify(url)} }],
        [{ name: 'a', value: '1', url: 'http://127.0.0.2/' }],
        [{ name: 'a', value: '1', url: ${JSON.stringify(url)}, bogus: true }],
      ];
      for (const batch of tries) {
        try { await context.addCookies(batch); codes.push('ok'); } catch (e) { codes.push(e.code); }
      }
      return { codes, names: (await context.cookies()).map((c) => c.name) };
    `);
    expect(out).toEqual({ codes: ['INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT'], names: [] });
  });
});

describe('code mode: page.emulateMedia and locator.selectText', () => {
  test('changes prefers-color-scheme and reduced motion of the open page', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    await run(`await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' }); return 1;`);
    expect(
      await evaluate(() => [
        matchMedia('(prefers-color-scheme: dark)').matches,
        matchMedia('(prefers-reduced-motion: reduce)').matches,
      ]),
    ).toEqual([true, true]);
    await run(`await page.emulateMedia({ colorScheme: 'light' }); return 1;`);
    expect(await evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(false);
  });

  test('selects a word by content in a contenteditable, all of an element, and a textarea value', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/editable') });
    await run(`await page.locator('#para').selectText({ text: 'brown', occurrence: 2 }); return 1;`);
    const selection = () =>
      evaluate(() => {
        const range = getSelection()?.getRangeAt(0);
        return [getSelection()?.toString(), range?.startContainer.parentElement?.localName];
      });
    // The second "brown" is in the paragraph's own text, not the <i>.
    expect(await selection()).toEqual(['brown', 'p']);
    await run(
      `await page.locator('#para').selectText({ text: 'fox' }); await page.keyboard.press('Control+b'); return 1;`,
    );
    expect(await run(`return await page.locator('#para b').allTextContents();`)).toEqual(['fox']);
    await run(`await page.locator('#para p').selectText(); return 1;`);
    expect((await selection())[0]).toBe('The quick brown fox jumps over the brown dog');
    await run(`await page.locator('#area').selectText(); return 1;`);
    expect(
      await evaluate(() => {
        const area = document.querySelector('textarea');
        return [document.activeElement === area, area?.selectionStart, area?.selectionEnd];
      }),
    ).toEqual([true, 0, 'one two three two'.length]);
    const missing = await runError(`await page.locator('#para').selectText({ text: 'cat' });`);
    expect(missing.code).toBe('INVALID_ARGUMENT');
    expect(await run(`return await page.locator('#area').inputValue();`)).toBe('one two three two');
  });
});
