/**
 * A remote browser lost mid-call, through the MCP face: the playwright provider on a real
 * `playwright run-server` on 127.0.0.1, killed (with the browsers it launched) while a call waits.
 * The call must come back with a structured error, the session must say it failed, and once a server
 * answers on the endpoint again a new session must work.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../src/config/config-types.js';
import { vi } from 'vitest';
import type { McpHarness } from '../helpers/harness.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { startPlaywrightServer, type PlaywrightServer } from './support/playwright-server.js';

/** The server on the file's endpoint now: each test kills it, and a new one takes the same port. */
let current: PlaywrightServer | undefined;

const test = fixtureTest
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('pwServer', { scope: 'file' }, async ({}, { onCleanup }): Promise<PlaywrightServer> => {
    current = await startPlaywrightServer();
    onCleanup(() => current?.stop());
    return current;
  })
  .extend('harnessConfig', { scope: 'file' }, ({ pwServer }): Partial<Config> => ({
    playwrightEndpoint: pwServer.endpoint,
    provider: 'playwright',
    tools: ['core', 'code'],
    timeoutMs: 45_000,
  }));

interface ListedSession {
  sessionId: string;
  state: string;
  failureCode: string | null;
}

/** A live server on the file's endpoint (a new one on the same port after a kill). */
async function liveServer(endpoint: string): Promise<PlaywrightServer> {
  const running = current && current.process.exitCode === null && current.process.signalCode === null;
  if (running && current) return current;
  await current?.stop();
  current = await startPlaywrightServer({ port: Number(new URL(endpoint).port) });
  return current;
}

/**
 * Starts `waitingCall` on a fresh session, kills the server while it is in flight, and checks the
 * call's error, the session's failure and a new session on a restarted server.
 */
async function killMidCall(
  h: McpHarness,
  site: FixtureServer,
  endpoint: string,
  waitingCall: (s: { sessionId: string; pageId: string }) => Promise<CallToolResult>,
): Promise<void> {
  const server = await liveServer(endpoint);
  const s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
  const waiting = waitingCall(s);
  await vi.waitFor(() => expect(h.mesh.getSession(s.sessionId).queue.size).toBe(1), { timeout: 30_000 });
  server.kill();
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
  expect((await h.err('browser_get_url', { ...s })).code).toBe('BROWSER_DISCONNECTED');

  // A server back on the same endpoint: the next session gets a new remote browser. The killed one's
  // exit may not have been seen yet, so it is waited for here (stop), not read from its state.
  await server.stop();
  await liveServer(endpoint);
  const fresh = await h.session();
  const nav = await h.ok<{ status: number }>('browser_navigate', { ...fresh, url: site.url('/quiet') });
  expect(nav.status).toBe(200);
  await h.ok('browser_session_close', { sessionId: fresh.sessionId });
}

describe('a playwright run-server killed mid-call, through MCP', () => {
  test('a text wait fails with BROWSER_DISCONNECTED, the session reports the loss, a new one works', async ({
    harness: h,
    site,
    pwServer,
  }) => {
    await killMidCall(h, site, pwServer.endpoint, (s) =>
      h.call(
        'browser_wait',
        { ...s, text: 'never shown on this page', timeoutMs: 40_000 },
        { timeout: 90_000 },
      ),
    );
  }, 180_000);

  test('a code-mode script waiting for a selector fails the same way', async ({
    harness: h,
    site,
    pwServer,
  }) => {
    await killMidCall(h, site, pwServer.endpoint, (s) =>
      h.call(
        'browser_run',
        {
          ...s,
          code: "await page.waitForSelector('#never-here', { timeout: 40000 }); return 1;",
          timeoutMs: 40_000,
        },
        { timeout: 90_000 },
      ),
    );
  }, 180_000);
});
