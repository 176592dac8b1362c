/**
 * Pages for the four WebSocket paths once found around the interception-mode gates: a page's
 * WebSocketStream; Playwright's WebSocket mock internals (`_apiConnect`, the dispatch global, the
 * native constructor behind an allowed socket); a module worker whose first statement is
 * `import.meta;` or `await 0;` with a static `data:` import; a service worker's update check. Every
 * attempt aims at the blocked trap (loopback alias); each page prints "settled <results>".
 */
import type { ServerResponse } from 'node:http';
import type { FixtureServer } from '../../fixtures/server.mjs';
import type { Trap } from '../../fixtures/lib/trap.mjs';
import type { SocketEcho } from './worker-sockets.js';

const html =
  (body: string) =>
  (_req: unknown, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>socket holes</title><p id="out">pending</p><script>${body}</script>`);
  };
const js =
  (body: string) =>
  (_req: unknown, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
    res.end(body);
  };

/** Page-side helpers: `settle(results)` prints them; `opens(ws)` resolves "allowed" or "refused". */
const HELPERS = `
const settle = (r) => { document.getElementById('out').textContent = 'settled ' + JSON.stringify(r); };
const opens = (ws) => new Promise((resolve) => {
  if (!ws) { resolve('refused'); return; }
  ws.addEventListener('open', () => { resolve('allowed'); ws.close(); });
  ws.addEventListener('error', () => resolve('refused'));
  ws.addEventListener('close', () => resolve('refused'));
});
const tryStream = async (url) => {
  try { const s = new WebSocketStream(url); await s.opened; s.close(); return 'allowed'; }
  catch (e) { return 'refused'; }
};
`;

export function installSocketHolePages(site: FixtureServer, trap: Trap, echo: SocketEcho): void {
  const blocked = `ws://127.0.0.2:${trap.port}/hole`;
  site.route(
    '/holes/stream',
    html(`${HELPERS}
(async () => settle({ blocked: await tryStream('${blocked}'), numeric: await tryStream('ws://2130706434:${trap.port}/'),
  echo: await tryStream('${echo.url}') }))();`),
  );
  // Playwright's WebSocket route replaces the page's WebSocket with a mock that connects the native
  // socket itself when told to; page script can reach those internals.
  site.route(
    '/holes/mock',
    html(`${HELPERS}
const attempt = async (make) => { try { return await opens(make()); } catch (e) { return 'refused'; } };
(async () => {
  const r = {};
  r.apiConnect = await attempt(() => { const ws = new WebSocket('${blocked}/a'); ws._apiConnect(); return ws._ws; });
  r.dispatch = await attempt(() => {
    const ws = new WebSocket('${blocked}/d');
    globalThis.__pwWebSocketDispatch({ id: ws._id, type: 'connect' });
    return ws._ws;
  });
  const allowed = new WebSocket('${echo.url}');
  r.echo = await opens(allowed);
  r.native = await attempt(() => {
    const Native = allowed._ws ? allowed._ws.constructor : WebSocket;
    return new Native('${blocked}/n');
  });
  settle(r);
})();`),
  );
  // Module-ness used to be guessed by a Node parse: these two are modules Node's classic parse fails
  // on for another reason, and their static data: import never crosses the interceptor.
  const dataModule = `data:text/javascript,${encodeURIComponent(
    `try { const ws = new WebSocket('${blocked}/m'); ws.onerror = () => {}; self.dep = 'created'; } catch (e) { self.dep = e.name; }`,
  ).replace(/'/g, '%27')}`;
  site.route('/holes/meta.mjs', js(`import.meta; import '${dataModule}'; postMessage(self.dep);`));
  site.route('/holes/await.mjs', js(`await 0; import '${dataModule}'; postMessage(self.dep);`));
  site.route(
    '/holes/module',
    html(`${HELPERS}
const run = (path) => new Promise((resolve) => {
  const w = new Worker(path, { type: 'module' });
  w.onmessage = (e) => resolve(String(e.data));
  w.onerror = () => resolve('worker failed');
});
(async () => settle({ meta: await run('/holes/meta.mjs'), await: await run('/holes/await.mjs') }))();`),
  );
  // A service worker whose install opens a socket to the trap; after an update check, the version
  // the browser re-fetched is asked what its install did.
  site.route(
    '/holes/sw.js',
    js(`let result = 'pending';
self.addEventListener('install', () => {
  try { const ws = new WebSocket('${blocked}/sw'); ws.onerror = () => {}; result = 'created'; } catch (e) { result = e.name; }
  self.skipWaiting();
});
self.addEventListener('message', (e) => e.source.postMessage(result));`),
  );
  site.route(
    '/holes/sw',
    html(`${HELPERS}
const ask = (worker) => new Promise((resolve) => {
  navigator.serviceWorker.addEventListener('message', (e) => resolve(e.data), { once: true });
  worker.postMessage('result');
});
const settled = (worker) => new Promise((resolve) => {
  if (worker.state === 'activated' || worker.state === 'redundant') { resolve(); return; }
  worker.addEventListener('statechange', () => { if (worker.state === 'activated' || worker.state === 'redundant') resolve(); });
});
(async () => {
  let reg;
  try { reg = await navigator.serviceWorker.register('/holes/sw.js'); }
  catch (e) { settle({ registered: e.name }); return; }
  await navigator.serviceWorker.ready;
  const first = await ask(reg.active);
  let second = 'no update';
  try { await reg.update(); } catch (e) { second = 'update failed'; }
  const next = reg.installing || reg.waiting;
  if (next) { await settled(next); second = next.state === 'redundant' ? 'redundant' : await ask(next); }
  settle({ first, second });
})();`),
  );
}
