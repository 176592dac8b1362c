/**
 * MCP over Streamable HTTP with the official SDK client: sessions belong to the client connection
 * that created them (unless shared mode is on), and a client that goes away has its sessions closed
 * after the grace period — not before, and not if it comes back in time.
 */
import { describe, expect, test } from './support/fixtures.js';
import { createLogger } from '../../src/engine/logger.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import type { RunningHttpServer } from '../../src/mcp/http.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { testConfig } from '../helpers/harness.js';
import { connectHttp, err, ok, startTestHttpServer, type HttpClient } from './support/mcp-http.js';
import { waitFor } from './support/wait.js';

type Created = { session: { sessionId: string }; initialPage: { pageId: string } };

let mesh: BrowserMesh;
let site: FixtureServer;
const servers: RunningHttpServer[] = [];
const clients: HttpClient[] = [];

// The file's mesh and site come from the shared fixtures; each test starts the servers it needs.
test.beforeAll(({ mesh: fileMesh, site: fileSite }) => {
  mesh = fileMesh;
  site = fileSite;
});
test.afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.client.close()));
  await Promise.allSettled(servers.splice(0).map((s) => s.close()));
});

async function serve(overrides: Parameters<typeof startTestHttpServer>[1] = {}): Promise<RunningHttpServer> {
  const server = await startTestHttpServer(mesh, overrides);
  servers.push(server);
  return server;
}
async function connect(url: string, options: Parameters<typeof connectHttp>[1] = {}): Promise<HttpClient> {
  const connected = await connectHttp(url, options);
  clients.push(connected);
  return connected;
}

describe('MCP over Streamable HTTP: sessions per client', () => {
  test('shows and lets drive a session only to the client that created it', async () => {
    const server = await serve();
    const [a, b] = [await connect(server.url), await connect(server.url)];
    const created = await ok<Created>(a.client, 'browser_session_create', { name: 'mine' });
    const sessionId = created.session.sessionId;
    const pageId = created.initialPage.pageId;

    const nav = await ok<{ url: string }>(a.client, 'browser_navigate', {
      sessionId,
      pageId,
      url: site.url('/shop/'),
    });
    expect(nav.url).toBe(site.url('/shop/'));
    expect((await ok<{ sessions: unknown[] }>(a.client, 'browser_session_list')).sessions).toHaveLength(1);

    expect((await ok<{ sessions: unknown[] }>(b.client, 'browser_session_list')).sessions).toEqual([]);
    for (const [tool, args] of [
      ['browser_session_get', { sessionId }],
      ['browser_navigate', { sessionId, pageId, url: site.url('/shop/cart') }],
      ['browser_get_title', { sessionId, pageId }],
      ['browser_session_close', { sessionId }],
    ] as const) {
      const error = await err(b.client, tool, args);
      expect(error.code).toBe('SESSION_NOT_FOUND');
      // The same answer as for an id that never existed: no hint that it exists.
      expect(error.message).toBe(`No session ${sessionId}`);
    }
    expect(mesh.getSession(sessionId).state).toBe('ready');
    await ok(a.client, 'browser_session_close', { sessionId });
  });

  test('lets every client see every session in shared mode', async () => {
    // Its own runtime: shared sessions have no owner, so they would show up in the other tests too.
    const sharedMesh = new BrowserMesh({ config: testConfig(), logger: createLogger('silent') });
    try {
      const server = await startTestHttpServer(sharedMesh, { sharedSessions: true });
      servers.push(server);
      const [a, b] = [await connect(server.url), await connect(server.url)];
      const created = await ok<Created>(a.client, 'browser_session_create');
      const listed = await ok<{ sessions: Array<{ sessionId: string }> }>(b.client, 'browser_session_list');
      expect(listed.sessions.map((s) => s.sessionId)).toEqual([created.session.sessionId]);
      await ok(b.client, 'browser_session_close', { sessionId: created.session.sessionId });
    } finally {
      await sharedMesh.shutdown();
    }
  });
});

describe('MCP over Streamable HTTP: client disconnects', () => {
  const graceMs = 1_500;

  test('closes a gone client’s sessions after the grace period, and only then', async () => {
    const server = await serve({ disconnectGraceMs: graceMs });
    const [leaving, staying] = [await connect(server.url), await connect(server.url)];
    const gone = (await ok<Created>(leaving.client, 'browser_session_create')).session.sessionId;
    const kept = (await ok<Created>(staying.client, 'browser_session_create')).session.sessionId;

    const left = Date.now();
    await leaving.client.close();
    expect(mesh.getSession(gone).state).toBe('ready');
    await waitFor(
      () => mesh.getSession(gone).state === 'closed',
      20_000,
      'the gone client’s session to close',
    );
    expect(Date.now() - left).toBeGreaterThanOrEqual(graceMs - 50);
    expect(mesh.getSession(kept).state).toBe('ready');
    expect(server.clientCount()).toBe(1);
    await ok(staying.client, 'browser_session_close', { sessionId: kept });
  });

  test('keeps the sessions of a client that reconnects within the grace period', async () => {
    const server = await serve({ disconnectGraceMs: graceMs });
    const first = await connect(server.url);
    const mcpSessionId = first.transport.sessionId ?? '';
    const sessionId = (await ok<Created>(first.client, 'browser_session_create')).session.sessionId;
    await first.client.close();

    const again = await connect(server.url, { sessionId: mcpSessionId });
    const listed = await ok<{ sessions: Array<{ sessionId: string }> }>(again.client, 'browser_session_list');
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([sessionId]);
    // Back and active until well past the first disconnect's deadline: the session stays.
    const until = Date.now() + graceMs * 2;
    while (Date.now() < until) {
      const got = await ok<{ session: { state: string } }>(again.client, 'browser_session_get', {
        sessionId,
      });
      expect(got.session.state).toBe('ready');
      await new Promise((resolve) => setTimeout(resolve, graceMs / 5));
    }

    // An explicit goodbye (HTTP DELETE) closes them at once, without waiting.
    await again.transport.terminateSession();
    await waitFor(
      () => mesh.getSession(sessionId).state === 'closed',
      5_000,
      'termination to close the session',
    );
  });
});
