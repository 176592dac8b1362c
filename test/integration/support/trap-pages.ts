import type { ServerResponse } from 'node:http';
import type { FixtureServer } from '../../fixtures/server.mjs';

/**
 * Pages that try the trap (a blocked loopback alias) every way a page can: a fetch, an iframe, a
 * dedicated worker's fetch and a WebSocket (`${prefix}/page` settles into `settled {json}` with
 * fetch/worker `reached|failed`, ws `refused|opened`), and a service worker whose install fetches the
 * trap (`${prefix}/service-worker` shows `sw ready` or `sw failed <name>`). Used by the guard tests of
 * each mode; `trapHost` is the alias the policy blocks.
 */
export function installTrapPages(
  site: FixtureServer,
  prefix: string,
  trapHost: string,
  trapPort: number,
): void {
  const trap = `${trapHost}:${trapPort}`;
  const html = (body: string) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>trap pages</title>${body}`);
  };
  const script = (body: string) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(body);
  };
  site.route(
    `${prefix}/worker.js`,
    script(`fetch('http://${trap}/w').then(() => postMessage('reached'), () => postMessage('failed'));`),
  );
  site.route(
    `${prefix}/page`,
    html(`<p id="out">pending</p>
<iframe src="http://${trap}/frame"></iframe>
<script>
const results = {};
const done = (k, v) => { results[k] = v; if (Object.keys(results).length === 3)
  document.getElementById('out').textContent = 'settled ' + JSON.stringify(results); };
fetch('http://${trap}/fetch').then(() => done('fetch', 'reached'), () => done('fetch', 'failed'));
new Worker('${prefix}/worker.js').onmessage = (e) => done('worker', e.data);
const ws = new WebSocket('ws://${trap}/ws');
let opened = false;
ws.onopen = () => { opened = true; };
ws.onclose = (e) => done('ws', e.code === 1008 || !opened ? 'refused' : 'opened');
</script>`),
  );
  site.route(
    `${prefix}/sw.js`,
    script(
      `self.addEventListener('install', (e) => e.waitUntil(fetch('http://${trap}/sw').catch(() => 0)));`,
    ),
  );
  site.route(
    `${prefix}/service-worker`,
    html(`<p id="sw">pending</p><script>
navigator.serviceWorker.register('${prefix}/sw.js').then((r) => r.update().then(() => navigator.serviceWorker.ready))
  .then(() => { document.getElementById('sw').textContent = 'sw ready'; },
        (e) => { document.getElementById('sw').textContent = 'sw failed ' + e.name; });
</script>`),
  );
}
