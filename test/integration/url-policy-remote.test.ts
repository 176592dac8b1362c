/**
 * The URL policy where no guard proxy can sit in the browser's path: an operator proxy
 * (--proxy-server), a remote-debugging Chromium (cdp provider) and a real Selenium Grid. Loopback
 * only: the fixture on 127.0.0.1 is allowed; a trap on the alias 127.0.0.2 is configured as blocked
 * and must receive no connection for a subresource, a redirect, a popup, a worker or a WebSocket.
 * The operator proxy here forwards anything it is asked for, so a request the policy let through
 * would reach the trap.
 */
import { describe, expect, test } from './support/fixtures.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { startTrap, type Trap } from '../fixtures/lib/trap.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { INTERCEPTION_MODES, useModeHarness } from './support/interception-modes.js';
import { waitFor } from './support/wait.js';
import { installWorkerSocketPages, startSocketEcho, type SocketEcho } from './support/worker-sockets.js';

let site: FixtureServer;
let trap: Trap;
let echo: SocketEcho;

// The site comes from the shared fixtures; the trap (on the blocked alias) and the echo are the file's own.
test.beforeAll(async ({ site: fileSite }) => {
  site = fileSite;
  [trap, echo] = await Promise.all([startTrap('127.0.0.2'), startSocketEcho()]);
  installPages();
});
test.afterAll(async () => {
  await trap?.close();
  await echo?.close();
});

function installPages(): void {
  const p = trap.port;
  const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>remote policy</title>${body}`);
  };
  site.route('/rpolicy/redirect', (_req, res) => {
    res.writeHead(302, { location: `${trap.origin}/redirected` });
    res.end();
  });
  site.route('/rpolicy/img-redirect', (_req, res) => {
    res.writeHead(302, { location: `http://0x7f000002:${p}/img-hop` });
    res.end();
  });
  site.route('/rpolicy/worker.js', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(
      `fetch('http://2130706434:${p}/w').then(() => postMessage('reached'), () => postMessage('failed'));`,
    );
  });
  site.route(
    '/rpolicy/page',
    html(`<p id="out">pending</p>
<script>
const results = {};
const done = (k, v) => { results[k] = v; if (Object.keys(results).length === 5)
  document.getElementById('out').textContent = 'settled ' + JSON.stringify(results); };
fetch('http://127.0.0.2:${p}/fetch').then(() => done('fetch', 'reached'), () => done('fetch', 'failed'));
const img = new Image(); img.onload = () => done('img', 'reached'); img.onerror = () => done('img', 'failed');
img.src = 'http://0177.0.0.2:${p}/img.png';
const hop = new Image(); hop.onload = () => done('hop', 'reached'); hop.onerror = () => done('hop', 'failed');
hop.src = '/rpolicy/img-redirect';
new Worker('/rpolicy/worker.js').onmessage = (e) => done('worker', e.data);
const ws = new WebSocket('ws://127.0.0.2:${p}/ws');
let opened = false;
ws.onopen = () => { opened = true; };
ws.onclose = (e) => done('ws', e.code === 1008 || !opened ? 'refused' : 'closed ' + e.code);
</script>`),
  );
  site.route('/rpolicy/sw.js', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    // Activation waits for the fetch to settle, so "ready" means the request was already decided.
    res.end(
      `self.addEventListener('install', (e) => e.waitUntil(fetch('http://127.0.0.2:${p}/sw').catch(() => 0)));`,
    );
  });
  site.route(
    '/rpolicy/service-worker',
    html(`<p id="sw">pending</p><script>
navigator.serviceWorker.register('/rpolicy/sw.js').then(() => navigator.serviceWorker.ready)
  .then(() => { document.getElementById('sw').textContent = 'sw ready'; },
        () => { document.getElementById('sw').textContent = 'sw failed'; });
</script>`),
  );
  site.route(
    '/rpolicy/popup',
    html(`<a id="open" href="${trap.origin}/popup" target="_blank">open</a>
<a id="open-tls" href="https://127.0.0.2:${p}/popup" target="_blank">open over TLS</a>`),
  );
  installWorkerSocketPages(site, trap, echo);
}

describe.each(INTERCEPTION_MODES)('URL policy without a guard proxy: $name', (mode) => {
  const started = useModeHarness(mode);
  let h: McpHarness;
  let s: { sessionId: string; pageId: string };
  test.beforeAll(() => {
    if (!mode.skip) ({ h, s } = started());
  });

  test.skipIf(mode.skip !== undefined)('refuses a redirect hop to the blocked alias', async () => {
    const before = trap.connections();
    const error = await h.err('browser_navigate', { ...s, url: site.url('/rpolicy/redirect') });
    expect(error.code).toBe('NAVIGATION_BLOCKED');
    expect(error.details).toMatchObject({ reason: 'blocked_address' });
    expect(trap.connections()).toBe(before);
    // The session keeps working and the allowed fixture still loads.
    expect(
      (await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') })).status,
    ).toBe(200);
  });

  test.skipIf(mode.skip !== undefined)(
    'blocks subresources, a redirected image, a worker and a WebSocket; the trap receives nothing',
    async () => {
      const before = trap.connections();
      await h.ok('browser_navigate', { ...s, url: site.url('/rpolicy/page') });
      await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 20_000 });
      const text = (await h.ok<{ text: string }>('browser_visible_text', s)).text;
      for (const key of ['fetch', 'img', 'hop', 'worker']) expect(text).toContain(`"${key}":"failed"`);
      expect(text).toContain('"ws":"refused"');
      expect(trap.connections()).toBe(before);
      await waitFor(
        async () => {
          const read = await h.ok<{ events: Array<{ failure?: string }> }>('browser_observe', {
            ...s,
            source: 'requestFailed',
          });
          return read.events.some((event) => event.failure === 'BLOCKED_BY_POLICY');
        },
        10_000,
        'a BLOCKED_BY_POLICY observe event',
      );
    },
    60_000,
  );

  test.skipIf(mode.skip !== undefined)(
    'refuses service worker registration; the trap receives nothing',
    async () => {
      // A registered script's update checks are fetched without a target the interceptor sees.
      const before = trap.connections();
      await h.ok('browser_navigate', { ...s, url: site.url('/rpolicy/service-worker') });
      await h.ok('browser_wait', { ...s, text: 'sw failed', timeoutMs: 20_000 });
      expect(trap.connections()).toBe(before);
    },
  );

  test.skipIf(mode.skip !== undefined)('blocks a popup the page opens, over http and https', async () => {
    const before = { connections: trap.connections(), requests: trap.requests() };
    await h.ok('browser_navigate', { ...s, url: site.url('/rpolicy/popup') });
    for (const link of ['#open', '#open-tls']) {
      const cursor = await lastEventId(h, s);
      await h.ok('browser_click', { ...s, locator: { css: link } });
      // The popup's first request may be refused before the page is adopted: the refusal is recorded
      // on the opener (without the URL), and the popup shows Chromium's error page.
      await expectOpenerEvent(h, s, cursor);
      let popupId = '';
      await waitFor(
        async () => {
          const list = await h.ok<{ pages: Array<{ pageId: string; url: string }> }>('browser_page_list', {
            sessionId: s.sessionId,
          });
          const popup = list.pages.find((page) => page.pageId !== s.pageId);
          popupId = popup?.pageId ?? '';
          return popup?.url.startsWith('chrome-error://') === true;
        },
        15_000,
        'the popup to land on the error page',
      );
      // Nothing reaches the trap, not even a bare TCP connection: no preconnect to the popup's origin
      // (behind the operator proxy, an https one would be a CONNECT the proxy carries out).
      expect(trap.requests(), link).toBe(before.requests);
      expect(trap.connections(), link).toBe(before.connections);
      await h.ok('browser_page_close', { sessionId: s.sessionId, pageId: popupId });
    }
  });

  /** Loads a page of worker-sockets.ts and returns its text once its workers have reported. */
  async function settled(path: string): Promise<string> {
    await h.ok('browser_navigate', { ...s, url: site.url(path) });
    await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 20_000 });
    return (await h.ok<{ text: string }>('browser_visible_text', s)).text;
  }

  test.skipIf(mode.skip !== undefined)(
    'refuses WebSockets opened inside dedicated, nested, module and shared workers; allowed ones connect',
    async () => {
      const before = trap.connections();
      const cursor = await lastEventId(h, s);
      // Twice: the second visit may take the worker scripts from the cache.
      for (const visit of [1, 2]) {
        const text = await settled(`/wsock/page?visit=${visit}`);
        for (const key of ['dedicated', 'nested', 'module', 'shared']) {
          expect(text).toContain(`"${key}":"refused,refused,allowed"`);
        }
        expect(trap.connections()).toBe(before);
      }
      await waitFor(
        async () => {
          const read = await h.ok<{ events: Array<{ failure?: string; resourceType?: string }> }>(
            'browser_observe',
            { ...s, source: 'requestFailed', sinceEventId: cursor },
          );
          return read.events.some((e) => e.failure === 'BLOCKED_BY_POLICY' && e.resourceType === 'websocket');
        },
        10_000,
        "a worker WebSocket's BLOCKED_BY_POLICY observe event",
      );
    },
    60_000,
  );

  test.skipIf(mode.skip !== undefined)(
    'gates workers whose script never crosses the network (blob:, data:)',
    async () => {
      const before = trap.connections();
      const text = await settled('/wsock/blob-page');
      for (const key of ['blob', 'blobModule', 'blobNested', 'frameBlob']) {
        expect(text).toContain(`"${key}":"refused,refused,allowed"`);
      }
      expect(text).toMatch(/"data":"(refused,refused,allowed|worker refused)"/);
      expect(trap.connections()).toBe(before);
    },
    60_000,
  );

  test.skipIf(mode.skip !== undefined)(
    'a hostile worker cannot get around the gate; bad socket URLs fail as the browser would',
    async () => {
      const before = trap.connections();
      const text = await settled('/wsock/tamper');
      // Patching XMLHttpRequest, reaching for the constructor, subclassing: refused.
      for (const name of ['patchedXhr', 'protoConstructor', 'subclass', 'reflect']) {
        expect(text).toContain(`${name}:SecurityError`);
      }
      // A URL object that reads allowed once and blocked after connects where it was checked (the echo).
      expect(text).toContain('shiftyUrl:created');
      expect(text).toContain('badUrl:SyntaxError');
      expect(text).toContain('call:TypeError');
      // The check path is answered by the interceptor itself: garbage and the trap refused, the echo 204.
      expect(text).toContain('checks:refused,refused,204');
      expect(trap.connections()).toBe(before);
    },
    60_000,
  );
});

async function lastEventId(h: McpHarness, s: { sessionId: string; pageId: string }): Promise<number> {
  return (await h.ok<{ nextCursor: number }>('browser_observe', { ...s, source: 'requestFailed' }))
    .nextCursor;
}

/** The opener's own observe log shows a popup refused by the policy: no URL, a document request. */
async function expectOpenerEvent(
  h: McpHarness,
  s: { sessionId: string; pageId: string },
  sinceEventId: number,
): Promise<void> {
  let found: Record<string, unknown> | undefined;
  await waitFor(
    async () => {
      const read = await h.ok<{ events: Array<Record<string, unknown>> }>('browser_observe', {
        ...s,
        source: 'requestFailed',
        sinceEventId,
      });
      found = read.events.find((e) => e.failure === 'BLOCKED_BY_POLICY' && e.resourceType === 'popup');
      return found !== undefined;
    },
    15_000,
    "the popup's refusal on the opener",
  );
  expect(found).not.toHaveProperty('url');
}
