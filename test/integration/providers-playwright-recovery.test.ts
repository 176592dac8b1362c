/**
 * A remote browser lost mid-call, through the MCP face: the playwright provider on a real
 * `playwright run-server` on 127.0.0.1, killed (with the browsers it launched) while a text wait is
 * in flight. The call must come back with a structured error, the session must say it failed, and
 * once a server answers on the endpoint again a new session must work.
 */
import { vi } from 'vitest';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { startPlaywrightServer, type PlaywrightServer } from './support/playwright-server.js';

let current: PlaywrightServer | undefined;

const test = fixtureTest
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('pwServer', { scope: 'file' }, async ({}, { onCleanup }): Promise<PlaywrightServer> => {
    current = await startPlaywrightServer();
    onCleanup(() => current?.stop());
    return current;
  })
  .extend('harnessConfig', { scope: 'file' }, ({ pwServer }) => ({
    playwrightEndpoint: pwServer.endpoint,
    provider: 'playwright' as const,
    timeoutMs: 45_000,
  }));

interface ListedSession {
  sessionId: string;
  state: string;
  failureCode: string | null;
}

describe('a playwright run-server killed mid-call, through MCP', () => {
  test('the call fails with a structured error, the session reports the loss, a new one works', async ({
    harness: h,
    site,
    pwServer,
  }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
    const waiting = h.call(
      'browser_wait',
      { ...s, text: 'never shown on this page', timeoutMs: 40_000 },
      { timeout: 90_000 },
    );
    await vi.waitFor(() => expect(h.mesh.getSession(s.sessionId).queue.size).toBe(1), {
      timeout: 30_000,
    });
    pwServer.kill();
    const result = await waiting;
    expect(result.isError).toBe(true);
    const { error } = JSON.parse(String((result.content as Array<{ text: string }>)[0]?.text)) as {
      error: { code: string; operationId?: string };
    };
    expect(error.code).toBe('BROWSER_DISCONNECTED');
    expect(error.operationId).toMatch(/^op_/);

    await vi.waitFor(
      async () => {
        const { sessions } = await h.ok<{ sessions: ListedSession[] }>('browser_session_list');
        expect(sessions.find((x) => x.sessionId === s.sessionId)).toMatchObject({
          state: 'failed',
          failureCode: 'BROWSER_DISCONNECTED',
        });
      },
      { timeout: 30_000 },
    );
    const later = await h.err('browser_get_url', { ...s });
    expect(later.code).toBe('BROWSER_DISCONNECTED');

    // A server back on the same endpoint: the next session gets a new remote browser.
    await current?.stop();
    current = await startPlaywrightServer({ port: Number(new URL(pwServer.endpoint).port) });
    const fresh = await h.session();
    const nav = await h.ok<{ status: number }>('browser_navigate', { ...fresh, url: site.url('/quiet') });
    expect(nav.status).toBe(200);
    await h.ok('browser_session_close', { sessionId: fresh.sessionId });
  }, 180_000);
});
