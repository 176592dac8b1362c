/**
 * The dashboard over HTTP with several principals (tokens file): each token sees and may take over
 * only its own principal's sessions; the operator's main token sees them all. Driven in a real
 * "viewer" Chromium against the running Streamable HTTP server.
 */
import type { Browser, Page } from 'playwright-core';
import {
  createSession,
  describe,
  expect,
  openDashboard,
  test as fixtureTest,
  type SessionIds,
} from './support/dashboard.js';
import { connectHttp, ok, rawRequest, type HttpClient } from './support/mcp-http.js';

const OPERATOR = 'operator-token-0123456789abcdef';
const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdefgh';
// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('dashboardSetup', { scope: 'file' }, () => ({
  token: OPERATOR,
  takeover: true,
  tokens: [
    { principal: 'alice', token: ALICE },
    { principal: 'bob', token: BOB },
  ],
}));

let alice: HttpClient;
let bob: HttpClient;
const ids: Record<'alice' | 'bob', SessionIds> = {
  alice: { sessionId: '', pageId: '' },
  bob: { sessionId: '', pageId: '' },
};

test.beforeAll(async ({ server }) => {
  [alice, bob] = await Promise.all([
    connectHttp(server.url, { token: ALICE }),
    connectHttp(server.url, { token: BOB }),
  ]);
  for (const [who, client] of [
    ['alice', alice],
    ['bob', bob],
  ] as const) {
    ids[who] = await createSession(client, { name: `${who}-work` });
  }
});
test.afterAll(async () => {
  await alice?.client.close();
  await bob?.client.close();
});

const open = (viewer: Browser, dashboardUrl: string, token: string): Promise<Page> =>
  openDashboard(viewer, dashboardUrl, token);

const auth = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

describe('dashboard per principal', () => {
  test("a principal's token shows only its own sessions in the browser", async ({ viewer, dashboardUrl }) => {
    const page = await open(viewer, dashboardUrl, ALICE);
    await page.locator(`[data-session-id="${ids.alice.sessionId}"]`).waitFor();
    expect(await page.locator(`[data-session-id="${ids.bob.sessionId}"]`).count()).toBe(0);
    expect(await page.locator('[data-session-id]').count()).toBe(1);
    await page.close();

    const state = await rawRequest(`${dashboardUrl}api/state`, { method: 'GET', headers: auth(BOB) });
    const shown = (JSON.parse(state.body) as { sessions: Array<{ sessionId: string }> }).sessions;
    expect(shown.map((s) => s.sessionId)).toEqual([ids.bob.sessionId]);
    expect(state.body).not.toContain('alice-work');
  });

  test("another principal's frames and take-over are answered as an unknown session", async ({
    dashboardUrl,
    mesh,
  }) => {
    const frames = await rawRequest(
      `${dashboardUrl}api/frames?sessionId=${ids.bob.sessionId}&pageId=${ids.bob.pageId}`,
      { method: 'GET', headers: auth(ALICE) },
    );
    expect(frames.status).toBe(404);
    expect(JSON.parse(frames.body).error.code).toBe('SESSION_NOT_FOUND');
    for (const action of ['start', 'input', 'release']) {
      const res = await rawRequest(`${dashboardUrl}api/takeover/${action}`, {
        headers: auth(ALICE),
        body: JSON.stringify({ ...ids.bob, type: 'text', text: 'x' }),
      });
      expect(res.status, action).toBe(404);
      expect(JSON.parse(res.body).error.code).toBe('SESSION_NOT_FOUND');
    }
    // Bob's queue was never held: his own call runs at once.
    expect(mesh.getSession(ids.bob.sessionId).queue.size).toBe(0);
    await ok(bob.client, 'browser_get_title', ids.bob);
    // Alice may still take over her own session and hand it back.
    const own = await rawRequest(`${dashboardUrl}api/takeover/start`, {
      headers: auth(ALICE),
      body: JSON.stringify(ids.alice),
    });
    expect(own.status).toBe(200);
    const released = await rawRequest(`${dashboardUrl}api/takeover/release`, {
      headers: auth(ALICE),
      body: JSON.stringify({ sessionId: ids.alice.sessionId }),
    });
    expect(released.status).toBe(200);
  });

  test("the operator's main token sees every principal's sessions", async ({ viewer, dashboardUrl }) => {
    const page = await open(viewer, dashboardUrl, OPERATOR);
    await page.locator(`[data-session-id="${ids.alice.sessionId}"]`).waitFor();
    await page.locator(`[data-session-id="${ids.bob.sessionId}"]`).waitFor();
    await page.close();
  });
});
