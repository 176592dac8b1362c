/**
 * Small leaks a shared server must not have: argument values echoed in errors, password values read
 * back through code mode, display-spoofing labels, and page titles that come back unbounded with
 * bidi overrides and NUL. Real Chromium against the loopback fixture.
 */
import type { FixtureServer } from '../fixtures/server.mjs';
import { McpHarness, textOf } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

const SECRET = 'hunter2-Sup3rSecret';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
  site.route('/secrets/login', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Login</title>
<label>User <input id="user"></label>
<label>Password <input id="pw" type="password"></label>
<label>Code <input id="otp" autocomplete="one-time-code"></label>`);
  });
  site.route('/secrets/title', (_req, res) => {
    // 5,000+ characters with a right-to-left override and a NUL the page hides text behind.
    const title = `Invoice \u202Efdp.exe\u202C paid\u0000${'x'.repeat(5000)}`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title></title><script>document.title = ${JSON.stringify(title)};</script>`);
  });
});

describe('errors name what the caller got wrong, never a known secret', () => {
  test('browser_press names an unknown key (redaction by knowledge, not by guess)', async () => {
    for (const [key, named] of [
      ['XXX', '"XXX"'],
      ['Control+XXX', '"XXX"'],
      ['Hyper+a', '"Hyper"'],
    ]) {
      const error = await h.err('browser_press', { ...s, key });
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'key' } });
      expect(error.message, key).toContain(named);
    }
    // The session keeps working.
    await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
  });
});

describe('password inputs in code mode', () => {
  test('inputValue() masks password and one-time-code inputs, as snapshots do', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/secrets/login') });
    const out = await h.ok<{ value: unknown }>('browser_run', {
      ...s,
      code: `await page.fill('#user', 'ada');
             await page.fill('#pw', '${SECRET}');
             await page.fill('#otp', '123456');
             return { user: await page.inputValue('#user'), pw: await page.locator('#pw').inputValue(),
                      otp: await page.inputValue('#otp'), attr: await page.getAttribute('#pw', 'value') };`,
    });
    expect(out.value).toEqual({ user: 'ada', pw: '••••', otp: '••••', attr: null });
    expect(JSON.stringify(out)).not.toContain('Sup3rSecret');
  });

  test('reads them only when the operator opts in', async () => {
    const open = await McpHarness.start({ readSecretInputs: true });
    try {
      const at = await open.session();
      await open.ok('browser_navigate', { ...at, url: site.url('/secrets/login') });
      const out = await open.ok<{ value: unknown }>('browser_run', {
        ...at,
        code: `await page.fill('#pw', 'opt-in-value'); return await page.inputValue('#pw');`,
      });
      expect(out.value).toBe('opt-in-value');
    } finally {
      await open.close();
    }
  });
});

describe('display-spoofing text', () => {
  test('refuses bidi overrides and zero-width characters in session names and metadata', async () => {
    for (const name of ['buyer\u202Egnp', 'ad\u200Bmin', '\u2066x\u2069', 'a\uFEFF']) {
      const error = await h.err('browser_session_create', { name });
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'name' } });
    }
    const meta = await h.err('browser_session_create', { metadata: { role: 'admin\u200D' } });
    expect(meta.code).toBe('INVALID_ARGUMENT');
  });

  test('clips page titles and removes bidi controls and NUL from them, on every path', async () => {
    const nav = await h.ok<{ title: string }>('browser_navigate', { ...s, url: site.url('/secrets/title') });
    const read = await h.ok<{ title: string }>('browser_get_title', s);
    const run = await h.ok<{ value: string }>('browser_run', { ...s, code: 'return await page.title()' });
    for (const title of [nav.title, read.title, run.value]) {
      expect(Array.from(title).length).toBeLessThanOrEqual(200);
      expect(title).toMatch(/^Invoice fdp\.exe paid/);
      // eslint-disable-next-line no-control-regex -- NUL is exactly what must be gone
      expect(title).not.toMatch(/[\u0000\u202a-\u202e]/);
      expect(title.endsWith('…')).toBe(true);
    }
  });
});

describe('--secrets: typed by name, never shown', () => {
  test('fills and types {{secret:NAME}} and shows only the reference in every result', async () => {
    const named = await McpHarness.start({ secrets: { SHOP_PASSWORD: SECRET } });
    try {
      const at = await named.session();
      await named.ok('browser_navigate', { ...at, url: site.url('/secrets/login') });
      await named.ok('browser_fill', { ...at, locator: { css: '#user' }, value: '{{secret:SHOP_PASSWORD}}' });
      await named.ok('browser_type', { ...at, locator: { css: '#otp' }, text: '{{secret:SHOP_PASSWORD}}' });
      const snap = await named.call('browser_snapshot', at);
      const read = await named.call('browser_run', { ...at, code: `return await page.inputValue('#user')` });
      for (const result of [snap, read]) expect(JSON.stringify(result)).not.toContain('Sup3rSecret');
      expect(JSON.stringify(read)).toContain('{{secret:SHOP_PASSWORD}}');
      expect(textOf(snap)).toContain('{{secret:SHOP_PASSWORD}}');
      const unknown = await named.err('browser_fill', {
        ...at,
        locator: { css: '#user' },
        value: '{{secret:NOPE}}',
      });
      expect(unknown).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'value' } });
    } finally {
      await named.close();
    }
  });
});
