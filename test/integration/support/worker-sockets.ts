/**
 * Pages whose workers open WebSockets, for the URL policy tests: a dedicated worker, a worker it
 * starts itself, a module worker whose imported module opens its sockets at load time, and a shared
 * worker. Each tries two sockets to the blocked trap (WebSocket, then WebSocketStream) and one to an
 * allowed echo server on 127.0.0.1, and reports e.g. "refused,refused,allowed". Loopback only.
 */
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FixtureServer } from '../../fixtures/server.mjs';
import type { Trap } from '../../fixtures/lib/trap.mjs';

export interface SocketEcho {
  /** ws://127.0.0.1:<port>/ */
  url: string;
  close(): Promise<void>;
}

/** A WebSocket server that completes the handshake and nothing more (enough for `open`). */
export async function startSocketEcho(): Promise<SocketEcho> {
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => res.writeHead(426).end());
  server.on('upgrade', (req, socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const key = String(req.headers['sec-websocket-key'] ?? '');
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The three attempts, as worker source: `attempt()` resolves to "refused,refused,allowed" when all is well. */
function attemptSource(trap: Trap, echo: SocketEcho): string {
  return `
const tryWs = (url) => new Promise((resolve) => {
  let ws;
  try { ws = new WebSocket(url); } catch { resolve('refused'); return; }
  ws.onopen = () => { resolve('allowed'); ws.close(); };
  ws.onerror = () => resolve('refused');
});
const tryStream = async (url) => {
  if (typeof WebSocketStream !== 'function') return 'refused';
  try { const s = new WebSocketStream(url); await s.opened; s.close(); return 'allowed'; } catch { return 'refused'; }
};
const attempt = async () => [
  await tryWs('ws://127.0.0.2:${trap.port}/worker'),
  await tryStream('ws://2130706434:${trap.port}/stream'),
  await tryWs('${echo.url}'),
].join(',');
`;
}

export function installWorkerSocketPages(site: FixtureServer, trap: Trap, echo: SocketEcho): void {
  // Cacheable: a second visit may take the scripts from Chromium's cache, and must be gated too.
  const js = (body: string) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'max-age=600' });
    res.end(body);
  };
  const attempt = attemptSource(trap, echo);
  site.route('/wsock/worker.js', js(`"use strict";${attempt}attempt().then((r) => postMessage(r));`));
  site.route(
    '/wsock/nested.js',
    js(`new Worker('/wsock/worker.js').onmessage = (e) => postMessage(e.data);`),
  );
  // Imports run before the importing module's body: the dependency opens its sockets first.
  site.route('/wsock/dep.mjs', js(`${attempt}export const result = attempt();`));
  site.route(
    '/wsock/module.mjs',
    js(`import { result } from '/wsock/dep.mjs'; result.then((r) => postMessage(r));`),
  );
  site.route(
    '/wsock/shared.js',
    js(`${attempt}onconnect = (e) => attempt().then((r) => e.ports[0].postMessage(r));`),
  );
  // Workers whose script never crosses the network: a blob (classic and module, and one a worker
  // starts itself) and a data: URL.
  site.route(
    '/wsock/blob-nested.js',
    js(`const src = ${JSON.stringify(attempt)} + 'attempt().then((r) => postMessage(r));';
new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' }))).onmessage = (e) => postMessage(e.data);`),
  );
  site.route('/wsock/blob-page', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>blob worker sockets</title><p id="out">pending</p><script>
const results = {};
const done = (k, v) => { results[k] = v; if (Object.keys(results).length === 5)
  document.getElementById('out').textContent = 'settled ' + JSON.stringify(results); };
const src = ${JSON.stringify(attempt)};
// A Worker constructor from a fresh same-origin frame, where page code runs before any of its own.
const frame = document.createElement('iframe');
document.body.appendChild(frame);
const FrameWorker = frame.contentWindow.Worker;
new FrameWorker(URL.createObjectURL(new Blob([src + 'attempt().then((r) => postMessage(r));'])))
  .onmessage = (e) => done('frameBlob', e.data);
const blob = (tail) => URL.createObjectURL(new Blob([src + tail], { type: 'text/javascript' }));
new Worker(blob('attempt().then((r) => postMessage(r));')).onmessage = (e) => done('blob', e.data);
new Worker(blob('export {}; attempt().then((r) => postMessage(r));'), { type: 'module' }).onmessage = (e) =>
  done('blobModule', e.data);
new Worker('/wsock/blob-nested.js').onmessage = (e) => done('blobNested', e.data);
try {
  const data = new Worker('data:text/javascript,' + encodeURIComponent(src + 'attempt().then((r) => postMessage(r));'));
  data.onmessage = (e) => done('data', e.data);
  data.onerror = () => done('data', 'worker refused');
} catch (e) { done('data', 'worker refused'); }
</script>`);
  });
  // A hostile worker trying to get around the gate; every attempt aims at the blocked trap.
  const blocked = `ws://127.0.0.2:${trap.port}/tamper`;
  site.route(
    '/wsock/tamper.js',
    js(`const out = [];
const tryIt = (name, make) => { try { const ws = make(); ws.onerror = () => {}; out.push(name + ':created'); }
  catch (e) { out.push(name + ':' + e.name); } };
XMLHttpRequest.prototype.open = function () {};
XMLHttpRequest.prototype.send = function () {};
Object.defineProperty(XMLHttpRequest.prototype, 'status', { get: () => 204 });
tryIt('patchedXhr', () => new WebSocket('${blocked}'));
tryIt('protoConstructor', () => new WebSocket.prototype.constructor('${blocked}'));
tryIt('subclass', () => new (class extends WebSocket {})('${blocked}'));
tryIt('reflect', () => Reflect.construct(WebSocket, ['${blocked}'], Object));
let reads = 0;
tryIt('shiftyUrl', () => new WebSocket({ toString: () => (reads++ ? '${blocked}' : '${echo.url}') }));
tryIt('badUrl', () => new WebSocket('ws://[bad'));
tryIt('call', () => WebSocket('${blocked}'));
postMessage(out.join(' '));`),
  );
  site.route('/wsock/tamper', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>tamper</title><p id="out">pending</p><script>
const check = (u) => fetch('/.well-known/browsermesh/socket-check?u=' + encodeURIComponent(u))
  .then((r) => String(r.status), () => 'refused');
new Worker('/wsock/tamper.js').onmessage = async (e) => {
  const answers = [await check('garbage'), await check('${blocked}'), await check('${echo.url}')];
  document.getElementById('out').textContent = 'settled ' + e.data + ' checks:' + answers.join(',');
};
</script>`);
  });
  site.route('/wsock/page', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>worker sockets</title><p id="out">pending</p><script>
const results = {};
const done = (k, v) => { results[k] = v; if (Object.keys(results).length === 4)
  document.getElementById('out').textContent = 'settled ' + JSON.stringify(results); };
new Worker('/wsock/worker.js').onmessage = (e) => done('dedicated', e.data);
new Worker('/wsock/nested.js').onmessage = (e) => done('nested', e.data);
new Worker('/wsock/module.mjs', { type: 'module' }).onmessage = (e) => done('module', e.data);
const shared = new SharedWorker('/wsock/shared.js');
shared.port.onmessage = (e) => done('shared', e.data);
</script>`);
  });
}
