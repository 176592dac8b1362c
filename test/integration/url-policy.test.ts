/**
 * The URL policy against real Chromium. Loopback only: the fixture on 127.0.0.1 is allowed, and a
 * trap listener on the alias 127.0.0.2 is configured as blocked and must receive no connection at
 * all — whether it is named directly, in a numeric spelling, by a redirect, a subresource, a worker,
 * a WebSocket or a popup.
 */
import { afterEach } from 'vitest';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { startTrap, type Trap } from '../fixtures/lib/trap.mjs';
import { McpHarness } from '../helpers/harness.js';
import { waitFor } from './support/wait.js';
import { installWorkerSocketPages, startSocketEcho, type SocketEcho } from './support/worker-sockets.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let trap: Trap;
let h: McpHarness;
let s: { sessionId: string; pageId: string };
let echo: SocketEcho;

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  blockedAddresses: ['127.0.0.2/32'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  trap = await startTrap('127.0.0.2');
  echo = await startSocketEcho();
  h = harness;
  s = await h.session();
  installPages();
});
test.afterAll(async () => {
  await trap?.close();
  await echo?.close();
});
afterEach(() => {
  expect(trap.connections()).toBe(0);
});

function installPages(): void {
  const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>policy</title>${body}`);
  };
  site.route('/policy/redirect', (_req, res) => {
    res.writeHead(302, { location: `${trap.origin}/redirected` });
    res.end();
  });
  site.route('/policy/worker.js', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(
      `fetch('http://2130706434:${trap.port}/w').then(() => postMessage('reached'), () => postMessage('failed'));`,
    );
  });
  const p = trap.port;
  site.route(
    '/policy/subresources',
    html(`<p id="out">pending</p><img src="http://0x7f000002:${p}/img.png">
<script>
const results = {};
const done = (k, v) => { results[k] = v; if (Object.keys(results).length === 4)
  document.getElementById('out').textContent = 'settled ' + JSON.stringify(results); };
fetch('http://127.0.0.2:${p}/fetch').then(() => done('fetch', 'reached'), () => done('fetch', 'failed'));
const img = new Image(); img.onload = () => done('img', 'reached'); img.onerror = () => done('img', 'failed');
img.src = 'http://0177.0.0.2:${p}/img2.png';
new Worker('/policy/worker.js').onmessage = (e) => done('worker', e.data);
const ws = new WebSocket('ws://[::ffff:127.0.0.2]:${p}/ws');
ws.onopen = () => done('ws', 'reached'); ws.onerror = () => done('ws', 'failed');
</script>`),
  );
  site.route('/policy/popup', html(`<a id="open" href="${trap.origin}/popup" target="_blank">open</a>`));
  installWorkerSocketPages(site, trap, echo);
}

describe('URL policy: every request the browser makes', () => {
  test('refuses a blocked address before the browser is asked, in every numeric spelling', async () => {
    for (const host of ['127.0.0.2', '2130706434', '0x7f000002', '0177.0.0.2', '[::ffff:127.0.0.2]']) {
      const error = await h.err('browser_navigate', {
        ...s,
        url: `http://${host}:${trap.port}/?token=secret9`,
      });
      expect(error.code, host).toBe('NAVIGATION_BLOCKED');
      expect(error.details).toMatchObject({ reason: 'blocked_address' });
      expect(JSON.stringify(error)).not.toContain('secret9');
    }
    // The session keeps working and allowed hosts still load.
    expect(
      (await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') })).status,
    ).toBe(200);
  });

  test('refuses a redirect hop to a blocked address with NAVIGATION_BLOCKED', async () => {
    const error = await h.err('browser_navigate', { ...s, url: site.url('/policy/redirect') });
    expect(error.code).toBe('NAVIGATION_BLOCKED');
    expect(error.details).toMatchObject({ reason: 'blocked_address' });
  });

  test('blocks subresources, workers and WebSockets, and reports them as observe events', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/policy/subresources') });
    await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 15_000 });
    const text = await h.ok<{ text: string }>('browser_visible_text', s);
    expect(text.text).toContain('"fetch":"failed"');
    expect(text.text).toContain('"img":"failed"');
    expect(text.text).toContain('"worker":"failed"');
    expect(text.text).toContain('"ws":"failed"');
    let failures: string[] = [];
    await waitFor(
      async () => {
        const read = await h.ok<{ events: Array<{ failure?: string }> }>('browser_observe', {
          ...s,
          source: 'requestFailed',
        });
        failures = read.events.map((event) => event.failure ?? '');
        return failures.filter((f) => f === 'BLOCKED_BY_POLICY').length >= 2;
      },
      10_000,
      'blocked requests in browser_observe',
    );
    expect(failures).toContain('BLOCKED_BY_POLICY');
  });

  test('blocks a popup the page opens', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/policy/popup') });
    const cursor = (await h.ok<{ nextCursor: number }>('browser_observe', { ...s, source: 'requestFailed' }))
      .nextCursor;
    await h.ok('browser_click', { ...s, locator: { css: '#open' } });
    let popupId = '';
    await waitFor(
      async () => {
        const list = await h.ok<{ pages: Array<{ pageId: string }> }>('browser_page_list', {
          sessionId: s.sessionId,
        });
        popupId = list.pages.find((page) => page.pageId !== s.pageId)?.pageId ?? '';
        return popupId !== '';
      },
      10_000,
      'the popup page',
    );
    await waitFor(
      async () => {
        const read = await h.ok<{ events: Array<{ failure?: string }> }>('browser_observe', {
          sessionId: s.sessionId,
          pageId: popupId,
          source: 'requestFailed',
        });
        return read.events.some((event) => event.failure === 'BLOCKED_BY_POLICY');
      },
      10_000,
      'the popup navigation to be refused',
    );
    // The opener's log says a popup it opened was refused, without the URL.
    let onOpener: Record<string, unknown> | undefined;
    await waitFor(
      async () => {
        const read = await h.ok<{ events: Array<Record<string, unknown>> }>('browser_observe', {
          ...s,
          source: 'requestFailed',
          sinceEventId: cursor,
        });
        onOpener = read.events.find((e) => e.failure === 'BLOCKED_BY_POLICY' && e.resourceType === 'popup');
        return onOpener !== undefined;
      },
      10_000,
      "the popup's refusal on the opener",
    );
    expect(onOpener).not.toHaveProperty('url');
    await h.ok('browser_page_close', { sessionId: s.sessionId, pageId: popupId });
  });

  test('keeps WebSockets opened inside workers off blocked addresses; allowed ones connect', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/wsock/page') });
    await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 20_000 });
    const text = (await h.ok<{ text: string }>('browser_visible_text', s)).text;
    for (const key of ['dedicated', 'nested', 'module', 'shared']) {
      expect(text).toContain(`"${key}":"refused,refused,allowed"`);
    }
    await h.ok('browser_navigate', { ...s, url: site.url('/wsock/blob-page') });
    await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 20_000 });
    const blob = (await h.ok<{ text: string }>('browser_visible_text', s)).text;
    for (const key of ['blob', 'blobModule', 'blobNested', 'frameBlob', 'data']) {
      expect(blob).toContain(`"${key}":"refused,refused,allowed"`);
    }
  });
});

describe('URL policy: origin lists and private networks', () => {
  test('--allowed-origins lets only the listed hosts through', async () => {
    const port = new URL(site.origin).port;
    const limited = await McpHarness.start({ allowedOrigins: [`127.0.0.1:${port}`] });
    try {
      const at = await limited.session();
      await limited.ok('browser_navigate', { ...at, url: site.url('/quiet') });
      const error = await limited.err('browser_navigate', { ...at, url: site.altUrl('/quiet') });
      expect(error).toMatchObject({
        code: 'NAVIGATION_BLOCKED',
        details: { reason: 'not_in_allowed_origins' },
      });
    } finally {
      await limited.close();
    }
  });

  test('--blocked-origins and the private-network block refuse loopback hosts; a listed host is trusted', async () => {
    const port = new URL(site.origin).port;
    const strict = await McpHarness.start({
      blockPrivateNetwork: 'on',
      allowedOrigins: [`127.0.0.1:${port}`, 'localhost'],
      blockedOrigins: ['localhost'],
    });
    try {
      const at = await strict.session();
      await strict.ok('browser_navigate', { ...at, url: site.url('/quiet') });
      const blocked = await strict.err('browser_navigate', { ...at, url: site.altUrl('/quiet') });
      expect(blocked.details).toMatchObject({ reason: 'blocked_origin' });
      const privateHost = await strict.err('browser_navigate', { ...at, url: `http://127.0.0.3:${port}/` });
      expect(privateHost.details).toMatchObject({ reason: 'not_in_allowed_origins' });
    } finally {
      await strict.close();
    }
  });
});
