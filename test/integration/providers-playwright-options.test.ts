/**
 * The playwright provider's operator settings, against real Playwright servers on 127.0.0.1:
 * `--playwright-tunnel off` (the operator's explicit opt-out of the boundary) accepts a
 * `launchServer()` endpoint, which the default refuses, and says the URL policy is then best effort;
 * a `{session}` placeholder mints one endpoint per session. Loopback only: the blocked alias
 * 127.0.0.2 is a trap that must receive no connection.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { chromium, type BrowserServer } from 'playwright-core';
import { startTrap, type Trap } from '../fixtures/lib/trap.mjs';
import { CHROMIUM, McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { startPlaywrightServer, type PlaywrightServer } from './support/playwright-server.js';

const test = fixtureTest
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('pwServer', { scope: 'file' }, async ({}, { onCleanup }): Promise<PlaywrightServer> => {
    const server = await startPlaywrightServer();
    onCleanup(() => server.stop());
    return server;
  })
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('launched', { scope: 'file' }, async ({}, { onCleanup }): Promise<BrowserServer> => {
    const server = await chromium.launchServer({ executablePath: CHROMIUM, host: '127.0.0.1' });
    onCleanup(() => server.close());
    return server;
  });

/**
 * A loopback-only front for a run-server that records each WebSocket upgrade's path and query, then
 * passes the bytes through to the server (also on 127.0.0.1).
 */
async function recordingFront(
  target: string,
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  if (hostname !== '127.0.0.1') throw new Error('the front forwards to loopback only');
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, client: Socket, head: Buffer) => {
    seen.push(req.url ?? '');
    const upstream = connect(Number(port), '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      client.pipe(upstream).pipe(client);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('--playwright-tunnel off', () => {
  let trap: Trap;
  test.beforeAll(async () => {
    trap = await startTrap('127.0.0.2');
  });
  test.afterAll(async () => {
    await trap?.close();
  });

  test('accepts a launchServer() endpoint and says the URL policy is best effort, still refusing the blocked alias', async ({
    launched,
    site,
  }) => {
    const h = await McpHarness.start({
      provider: 'playwright',
      playwrightEndpoint: launched.wsEndpoint(),
      playwrightTunnel: 'off',
      blockedAddresses: ['127.0.0.2/32'],
      timeoutMs: 45_000,
    });
    try {
      const s = await h.session();
      expect(h.mesh.getSession(s.sessionId).toInfo().placement).toEqual({
        provider: 'playwright',
        node: new URL(launched.wsEndpoint()).origin,
      });
      const nav = await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') });
      expect(nav.status).toBe(200);
      const info = await h.ok<{ urlPolicy: { enforcement: string; boundary: boolean; detail: string } }>(
        'browser_runtime_info',
      );
      expect(info.urlPolicy).toMatchObject({ enforcement: 'interception', boundary: false });
      expect(info.urlPolicy.detail).toMatch(/^best effort/);
      // Interception still refuses the blocked alias; it only is no boundary.
      const refused = await h.err('browser_navigate', { ...s, url: `${trap.origin}/direct` });
      expect(refused.code).toBe('NAVIGATION_BLOCKED');
      expect(trap.connections()).toBe(0);
      await h.ok('browser_session_close', { sessionId: s.sessionId });
    } finally {
      await h.close();
    }
  }, 120_000);

  test('the default (required) refuses the same endpoint with tunnel_unsupported, over MCP', async ({
    launched,
  }) => {
    const h = await McpHarness.start({
      provider: 'playwright',
      playwrightEndpoint: launched.wsEndpoint(),
      timeoutMs: 45_000,
    });
    try {
      const error = await h.err('browser_session_create');
      expect(error).toMatchObject({ code: 'BROWSER_ERROR', details: { reason: 'tunnel_unsupported' } });
    } finally {
      await h.close();
    }
  }, 120_000);
});

describe('a {session} placeholder in the endpoint', () => {
  test('mints one endpoint per session, each of which gets its own remote browser', async ({
    pwServer,
    site,
  }) => {
    const front = await recordingFront(pwServer.endpoint);
    const h = await McpHarness.start({
      provider: 'playwright',
      playwrightEndpoint: `${front.url}/?session={session}`,
      timeoutMs: 45_000,
    });
    try {
      const [a, b] = await Promise.all([h.session(), h.session()]);
      expect(front.seen).toHaveLength(2);
      const ids = front.seen.map((path) => new URL(path, 'ws://x').searchParams.get('session'));
      for (const id of ids) expect(id).toMatch(/^[a-z0-9]+$/);
      expect(new Set(ids).size).toBe(2);
      expect(front.seen.join(' ')).not.toContain('{session}');
      for (const s of [a, b]) {
        const nav = await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') });
        expect(nav.status).toBe(200);
      }
      expect(h.mesh.getSession(a.sessionId).browserLease?.browser).not.toBe(
        h.mesh.getSession(b.sessionId).browserLease?.browser,
      );
    } finally {
      await h.close();
      await front.close();
    }
  }, 120_000);
});
