import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, extname, join, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.webmanifest': 'application/manifest+json',
};

export interface TraceViewer {
  /** The viewer's URL with this trace loaded (`index.html?trace=…`, as trace.playwright.dev takes it). */
  url: string;
  close(): Promise<void>;
}

/**
 * Playwright's own trace viewer — the static app that `npx playwright show-trace` serves and
 * trace.playwright.dev hosts, shipped inside playwright-core — served on 127.0.0.1 with one trace zip.
 */
export async function serveTraceViewer(zip: Buffer): Promise<TraceViewer> {
  const root = join(
    dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')),
    'lib',
    'vite',
    'traceViewer',
  );
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/trace.zip') {
      res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Length': zip.length });
      return void res.end(zip);
    }
    const file = join(root, path.replace(/^\/+/, '') || 'index.html');
    if (!file.startsWith(root + sep)) return void res.writeHead(404).end();
    readFile(file).then(
      (body) => {
        res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
        res.end(body);
      },
      () => void res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/index.html?trace=${encodeURIComponent(`${base}/trace.zip`)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
