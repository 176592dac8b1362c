import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { CHROMIUM, McpHarness } from '../helpers/harness.js';
import { createBrowserMesh } from '../../src/create-mesh.js';
import { createLogger } from '../../src/engine/logger.js';
import { describe, expect, test } from './support/fixtures.js';

// --proxy-server (credentials in the URL) and --proxy-bypass, through the MCP client.
// The proxy is a loopback server that answers every request itself, so no traffic leaves the host:
// a made-up host name (.test) is never resolved, the proxy receives it as an absolute URL.

const USER = 'bmuser';
const PASSWORD = 'pr0xy-S3cret-pass';

let site: FixtureServer;
let proxy: Server;
let proxyUrl: string;
const seen: Array<{ url: string; authorized: boolean }> = [];

function authorized(req: IncomingMessage): boolean {
  const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  return req.headers['proxy-authorization'] === expected;
}

// The site comes from the shared fixture; each test starts a harness of its own, with its proxy flags.
test.beforeAll(async ({ site: fileSite }) => {
  site = fileSite;
  proxy = createServer((req, res) => {
    const ok = authorized(req);
    seen.push({ url: req.url ?? '', authorized: ok });
    if (!ok) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="bm"' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>via proxy</title><p>via proxy</p>');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
});

function start(argv: string[]): Promise<McpHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bm-proxy-'));
  return McpHarness.start(
    loadConfig(['--executable-path', CHROMIUM, '--data-dir', dataDir, ...argv], {}).config,
  );
}

describe('--proxy-server and --proxy-bypass', () => {
  test('sends pages through the proxy with the credentials from its URL, and never reports them', async () => {
    const withCredentials = proxyUrl.replace('http://', `http://${USER}:${PASSWORD}@`);
    const h = await start(['--proxy-server', withCredentials]);
    try {
      const page = await h.session();
      const loaded = await h.ok<{ title: string }>('browser_navigate', {
        ...page,
        url: 'http://bm-proxied.test/start',
      });
      expect(loaded.title).toBe('via proxy');
      expect(seen.some((entry) => entry.url === 'http://bm-proxied.test/start' && entry.authorized)).toBe(
        true,
      );
      // Playwright sends loopback through the proxy too unless the bypass list names a loopback host.
      const target = site.url('/quiet');
      const proxied = await h.ok<{ title: string }>('browser_navigate', { ...page, url: target });
      expect(proxied.title).toBe('via proxy');
      expect(seen.some((entry) => entry.url === target)).toBe(true);
      const reported = JSON.stringify([
        await h.ok('browser_session_get', { sessionId: page.sessionId }),
        await h.ok('browser_runtime_info'),
      ]);
      expect(reported).not.toContain(PASSWORD);
      expect(reported).not.toContain(USER);
    } finally {
      await h.close();
    }
  });

  test('sends the hosts of --proxy-bypass direct', async () => {
    const withCredentials = proxyUrl.replace('http://', `http://${USER}:${PASSWORD}@`);
    const h = await start(['--proxy-server', withCredentials, '--proxy-bypass', '.bypassed.test,127.0.0.1']);
    try {
      const page = await h.session();
      const target = site.url('/forms');
      const direct = await h.ok<{ title: string }>('browser_navigate', { ...page, url: target });
      expect(direct.title).not.toBe('via proxy');
      expect(seen.some((entry) => entry.url === target)).toBe(false);
      const viaProxy = await h.ok<{ title: string }>('browser_navigate', {
        ...page,
        url: 'http://other.test/',
      });
      expect(viaProxy.title).toBe('via proxy');
    } finally {
      await h.close();
    }
  });

  test('never logs the credentials, on success or when the proxy cannot be reached', async () => {
    const lines: string[] = [];
    const logger = createLogger('debug', (line) => void lines.push(line));
    for (const server of [proxyUrl, 'http://127.0.0.1:9']) {
      const withCredentials = server.replace('http://', `http://${USER}:${PASSWORD}@`);
      const dataDir = mkdtempSync(join(tmpdir(), 'bm-proxy-log-'));
      const argv = ['--executable-path', CHROMIUM, '--data-dir', dataDir, '--proxy-server', withCredentials];
      const mesh = createBrowserMesh({ config: loadConfig(argv, {}).config, logger });
      const h = await McpHarness.start({}, mesh);
      try {
        const page = await h.session();
        const result = await h.call('browser_navigate', { ...page, url: 'http://bm-proxied.test/logged' });
        expect(JSON.stringify(result)).not.toContain(PASSWORD);
        await h.ok('browser_session_close', { sessionId: page.sessionId });
      } finally {
        await h.close();
      }
    }
    expect(lines.length).toBeGreaterThan(4);
    const logged = lines.join('');
    expect(logged).not.toContain(PASSWORD);
    expect(logged).not.toContain(USER);
  });

  test('refuses a malformed proxy or bypass list without echoing it', () => {
    const bad = [
      ['--proxy-server', 'ftp://user:hunter2secret@127.0.0.1:21'],
      ['--proxy-server', 'http://user:hunter2secret@127.0.0.1:3128/some/path'],
      ['--proxy-bypass', 'hunter2secret/x'],
    ];
    for (const argv of bad) {
      expect(() => loadConfig(argv, {})).toThrow(/^--proxy-(server|bypass): must be/);
      try {
        loadConfig(argv, {});
      } catch (error) {
        expect(String(error)).not.toContain('hunter2secret');
      }
    }
  });
});
