import { describe, expect, it } from 'vitest';
import type { CodeModeBackend } from './backend.js';
import type { FacadeCall } from './facade-parse.js';
import { runScript } from './sandbox.js';

/** Routes, cookies, media and text selection as FacadeCalls, with no browser. */

function recorder(): { calls: FacadeCall[]; backend: CodeModeBackend } {
  const calls: FacadeCall[] = [];
  const backend: CodeModeBackend = {
    invoke: (call) => {
      calls.push(call);
      return Promise.resolve(call.op === 'cookies' ? [] : null);
    },
  };
  return { calls, backend };
}

// A generous deadline: the machine may be busy; nothing here waits on it.
const OPTIONS = () => ({ signal: new AbortController().signal, deadline: Date.now() + 60_000 });

async function record(code: string): Promise<FacadeCall[]> {
  const { calls, backend } = recorder();
  const result = await runScript(code, backend, OPTIONS());
  if (!result.ok) throw new Error(`script failed: ${JSON.stringify(result.error)}`);
  return calls;
}

async function failure(code: string): Promise<{ message: string; calls: FacadeCall[] }> {
  const { calls, backend } = recorder();
  const result = await runScript(code, backend, OPTIONS());
  if (result.ok) throw new Error('script unexpectedly succeeded');
  return { message: result.error.message, calls };
}

describe('page.route / context.route record the handler once, as data', () => {
  it('turns Playwright handler shapes and plain objects into route calls', async () => {
    const calls = await record(`
      await page.route('**/api/a', route => route.fulfill({ status: 201, contentType: 'text/plain', body: 'hi', headers: { 'X-A': '1' } }));
      await page.route('**/api/j', async route => { await route.fulfill({ json: { ok: true } }); });
      await context.route(/\\/api\\/b$/, route => route.abort());
      await page.context().route('**/api/c', route => route.abort('timedout'));
      await page.route('**/api/d', route => route.continue({ headers: { 'x-mesh': 'yes' } }));
      await page.route('**/api/e', route => route.fallback());
      await page.route('**/api/f', { status: 404, body: 'none' });
      await context.route('**/api/g', { abort: true });
      await page.unroute('**/api/a');
      await context.unrouteAll();
      return 1;
    `);
    expect(calls).toEqual([
      {
        op: 'route',
        url: '**/api/a',
        action: {
          kind: 'fulfill',
          status: 201,
          contentType: 'text/plain',
          body: 'hi',
          headers: { 'x-a': '1' },
        },
      },
      {
        op: 'route',
        url: '**/api/j',
        action: { kind: 'fulfill', body: '{"ok":true}', contentType: 'application/json' },
      },
      { op: 'route', url: '/\\/api\\/b$/', action: { kind: 'abort', reason: 'failed' } },
      { op: 'route', url: '**/api/c', action: { kind: 'abort', reason: 'timedout' } },
      { op: 'route', url: '**/api/d', action: { kind: 'continue', headers: { 'x-mesh': 'yes' } } },
      { op: 'route', url: '**/api/e', action: { kind: 'continue' } },
      { op: 'route', url: '**/api/f', action: { kind: 'fulfill', status: 404, body: 'none' } },
      { op: 'route', url: '**/api/g', action: { kind: 'abort', reason: 'failed' } },
      { op: 'unroute', url: '**/api/a' },
      { op: 'unroute' },
    ]);
  });

  it('refuses a handler that reads the request, answers twice or never, and bad options', async () => {
    const cases: [string, RegExp][] = [
      [
        `await page.route('**/x', route => route.request().url().endsWith('a') ? route.abort() : route.continue())`,
        /cannot see or branch on requests/,
      ],
      [
        `await page.route('**/x', (route, request) => request.method() === 'GET' ? route.abort() : route.continue())`,
        /cannot see or branch on requests/,
      ],
      [
        `await page.route('**/x', route => { try { route.request() } catch {} return route.abort() })`,
        /cannot see or branch on requests/,
      ],
      [`await page.route('**/x', route => { route.abort(); route.continue(); })`, /answered more than once/],
      [`await page.route('**/x', route => {})`, /must call route.fulfill/],
      [
        `await page.route('**/x', route => route.fulfill({ status: 200, bogus: 1 }))`,
        /option 'bogus' is not supported/,
      ],
      [
        `await page.route('**/x', route => route.continue({ url: 'http://127.0.0.1/' }))`,
        /option 'url' is not supported/,
      ],
      [`await page.route('**/x', route => route.abort('nope'))`, /errorCode/],
      [`await page.route('**/x', { status: 200 }, { times: 1 })`, /option 'times' is not supported/],
      [`await page.route(u => true, { status: 200 })`, /glob string or a RegExp/],
      [`await page.route('**/x', { abort: true, status: 500 })`, /option 'status' is not supported/],
      [`await page.route('**/x', { body: 'a', json: 1 })`, /cannot be combined/],
      [`await page.route('**/x', { body: 'x'.repeat(200001) })`, /too long/],
      [`await page.route('**/x', route => route.fetch())`, /runs once, at registration/],
    ];
    for (const [code, expected] of cases) {
      const { message, calls } = await failure(code);
      expect(message, code).toMatch(expected);
      expect(calls, code).toEqual([]);
    }
  });

  it('lets a script catch a refused route by its code and go on', async () => {
    const calls = await record(`
      let code = null;
      try { await page.route('**/x', route => route.request()); } catch (e) { code = e.code; }
      if (code !== 'INVALID_ARGUMENT') throw new Error('code was ' + code);
      await page.route('**/x', { status: 204 });
      return code;
    `);
    expect(calls).toEqual([{ op: 'route', url: '**/x', action: { kind: 'fulfill', status: 204 } }]);
  });
});

describe('cookies, emulateMedia and selectText', () => {
  it('produce the right calls', async () => {
    const calls = await record(`
      await context.cookies();
      await context.cookies('http://127.0.0.1/');
      await page.context().cookies(['http://127.0.0.1/a', 'http://localhost/']);
      await context.addCookies([{ name: 'a', value: '1', url: 'http://127.0.0.1/' }, { name: 'b', value: '', domain: 'localhost', path: '/', httpOnly: true, sameSite: 'Lax', expires: 2000000000 }]);
      await context.clearCookies();
      await context.clearCookies({ name: 'a', domain: 'localhost' });
      await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce', forcedColors: 'none', media: 'print' });
      await page.locator('#p').selectText();
      await page.getByText('hello').selectText({ text: 'bold', occurrence: 2, timeout: 500 });
      return 1;
    `);
    const p = { base: { kind: 'css', selector: '#p' }, steps: [] };
    expect(calls).toEqual([
      { op: 'cookies', urls: [] },
      { op: 'cookies', urls: ['http://127.0.0.1/'] },
      { op: 'cookies', urls: ['http://127.0.0.1/a', 'http://localhost/'] },
      {
        op: 'addCookies',
        cookies: [
          { name: 'a', value: '1', url: 'http://127.0.0.1/' },
          {
            name: 'b',
            value: '',
            domain: 'localhost',
            path: '/',
            httpOnly: true,
            sameSite: 'Lax',
            expires: 2000000000,
          },
        ],
      },
      { op: 'clearCookies' },
      { op: 'clearCookies', name: 'a', domain: 'localhost' },
      {
        op: 'emulateMedia',
        colorScheme: 'dark',
        reducedMotion: 'reduce',
        forcedColors: 'none',
        media: 'print',
      },
      { op: 'selectText', target: p },
      {
        op: 'selectText',
        target: { base: { kind: 'text', text: 'hello' }, steps: [] },
        text: 'bold',
        occurrence: 2,
        timeoutMs: 500,
      },
    ]);
  });

  it('refuses bad cookies, media and selection options by name', async () => {
    const cases: [string, RegExp][] = [
      [
        `await context.addCookies([{ name: 'a', value: '1', url: 'http://127.0.0.1/', partitionKey: 'x' }])`,
        /option 'partitionKey' is not supported/,
      ],
      [
        `await context.addCookies([{ value: '1', url: 'http://127.0.0.1/' }])`,
        /cookie 'name' must be a string/,
      ],
      [`await context.addCookies([])`, /must be an array of 1 to 50 cookies/],
      [`await context.addCookies({ name: 'a', value: '1' })`, /must be an array/],
      [`await context.clearCookies({ name: /a/ })`, /option 'name' must be a string, got a RegExp/],
      [`await page.emulateMedia({ colorScheme: 'purple' })`, /option 'colorScheme' must be one of/],
      [`await page.emulateMedia({})`, /must set colorScheme/],
      [`await page.locator('#p').selectText({ occurrence: 2 })`, /needs the text option/],
      [`await page.locator('#p').selectText({ force: true })`, /option 'force' is not supported/],
      [`await context.newPage()`, /context.newPage is not available in browser_run/],
    ];
    for (const [code, expected] of cases) {
      const { message, calls } = await failure(code);
      expect(message, code).toMatch(expected);
      expect(calls, code).toEqual([]);
    }
  });
});
