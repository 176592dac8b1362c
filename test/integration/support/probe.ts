import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a page sees of its browser settings, plus what the server saw of the request. */
export interface Probe {
  width: number;
  height: number;
  dpr: number;
  touchPoints: number;
  userAgent: string;
  language: string;
  timeZone: string;
  init: string | null;
  cookie: string;
  header: string | null;
  serverUserAgent: string | null;
}

/**
 * A fixture page that prints its own environment as JSON in the body: the browser side (viewport,
 * DPR, touch, user agent, locale, zone, init-script marker, cookies) and the request side (an echoed
 * test header and the user agent the server received).
 */
export function probePage(req: IncomingMessage, res: ServerResponse): void {
  const server = {
    header: req.headers['x-bm-test'] ?? null,
    serverUserAgent: req.headers['user-agent'] ?? null,
  };
  const script = `
    const probe = Object.assign(${JSON.stringify(server)}, {
      width: innerWidth, height: innerHeight, dpr: devicePixelRatio,
      touchPoints: navigator.maxTouchPoints, userAgent: navigator.userAgent,
      language: navigator.language, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      init: window.__bmInit ?? null, cookie: document.cookie,
    });
    document.body.textContent = JSON.stringify(probe);`;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>probe</title></head><body><script>${script}</script></body></html>`,
  );
}

/** An HTTPS server on 127.0.0.1 with a throwaway self-signed certificate (openssl). */
export async function startSelfSignedServer(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bm-tls-'));
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
    ],
    { input: '', encoding: 'utf8', env: { ...process.env }, timeout: 30_000, stdio: 'pipe' },
  );
  if (made.status !== 0) throw new Error('openssl could not make a test certificate');
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>tls ok</title><p>tls ok</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
