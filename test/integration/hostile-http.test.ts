/**
 * An HTTP client that goes away while its page spins for ever: its sessions are still closed after
 * the grace period, within the close bound, and their slots come back.
 */
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import type { RunningHttpServer } from '../../src/mcp/http.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { connectHttp, ok } from './support/mcp-http.js';
import { waitFor } from './support/wait.js';

type Created = { session: { sessionId: string }; initialPage: { pageId: string } };

let mesh: BrowserMesh;
let site: FixtureServer;
let server: RunningHttpServer;

// The file's mesh, site and HTTP server come from the shared fixtures.
const test = fixtureTest
  .extend('meshConfig', { scope: 'file' }, () => ({ maxSessions: 1 }))
  .extend('httpOptions', { scope: 'file' }, () => ({ disconnectGraceMs: 500 }));

test.beforeAll(({ mesh: fileMesh, site: fileSite, httpServer }) => {
  mesh = fileMesh;
  site = fileSite;
  server = httpServer;
});

describe('disconnect cleanup over HTTP', () => {
  test("closes a gone client's session whose page spins, and the slot comes back", async () => {
    const leaving = await connectHttp(server.url);
    const created = await ok<Created>(leaving.client, 'browser_session_create');
    const s = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
    await ok(leaving.client, 'browser_navigate', { ...s, url: site.url('/hostile/spin?delay=300&repeat=1') });
    // A wait queued behind the spinning page, as a client would leave it when it goes away.
    void leaving.client
      .callTool({ name: 'browser_wait', arguments: { ...s, text: 'never', timeoutMs: 600_000 } })
      .catch(() => undefined);
    await leaving.client.close();
    // Grace (0.5 s) plus the close bound; such a session once stayed `closing` for good.
    await waitFor(() => mesh.getSession(s.sessionId).state === 'closed', 12_000, 'the session to close');
    const next = await connectHttp(server.url);
    try {
      const again = await ok<Created>(next.client, 'browser_session_create');
      expect(again.session.sessionId).not.toBe(s.sessionId);
      await ok(next.client, 'browser_session_close', { sessionId: again.session.sessionId });
    } finally {
      await next.client.close();
    }
  });
});
