/**
 * The dashboard over HTTP with several principals (tokens file): each token sees and may take over
 * only its own principal's sessions; the operator's main token sees them all. Driven in a real
 * "viewer" Chromium against the running Streamable HTTP server.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserMesh } from '../../src/create-mesh.js';
import { createDashboard } from '../../src/dashboard/handler.js';
import { createLogger } from '../../src/engine/logger.js';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import type { RunningHttpServer } from '../../src/mcp/http.js';
import { CHROMIUM, testConfig } from '../helpers/harness.js';
import { connectHttp, ok, rawRequest, startTestHttpServer, type HttpClient } from './support/mcp-http.js';

type Created = { session: { sessionId: string }; initialPage: { pageId: string } };

const OPERATOR = 'operator-token-0123456789abcdef';
const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdefgh';
let mesh: BrowserMesh;
let server: RunningHttpServer;
let alice: HttpClient;
let bob: HttpClient;
let viewer: Browser;
let dashboardUrl: string;
const ids: Record<'alice' | 'bob', { sessionId: string; pageId: string }> = {
  alice: { sessionId: '', pageId: '' },
  bob: { sessionId: '', pageId: '' },
};

beforeAll(async () => {
  mesh = createBrowserMesh({ config: testConfig(), logger: createLogger('silent') });
  server = await startTestHttpServer(mesh, {
    token: OPERATOR,
    tokens: [
      { principal: 'alice', token: ALICE },
      { principal: 'bob', token: BOB },
    ],
    dashboard: createDashboard({ mesh, logger: createLogger('silent'), takeover: true }),
  });
  dashboardUrl = server.url.replace(/\/mcp$/, '/dashboard/');
  [alice, bob] = await Promise.all([
    connectHttp(server.url, { token: ALICE }),
    connectHttp(server.url, { token: BOB }),
  ]);
  for (const [who, client] of [
    ['alice', alice],
    ['bob', bob],
  ] as const) {
    const created = await ok<Created>(client.client, 'browser_session_create', { name: `${who}-work` });
    ids[who] = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
  }
  viewer = await chromium.launch({ executablePath: CHROMIUM });
}, 60_000);
afterAll(async () => {
  await viewer?.close();
  await alice?.client.close();
  await bob?.client.close();
  await server?.close();
  await mesh?.shutdown();
});

async function openDashboard(token: string): Promise<Page> {
  const page = await viewer.newPage();
  await page.goto(`${dashboardUrl}#token=${token}`);
  return page;
}

const auth = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

describe('dashboard per principal', () => {
  it("a principal's token shows only its own sessions in the browser", async () => {
    const page = await openDashboard(ALICE);
    await page.locator(`[data-session-id="${ids.alice.sessionId}"]`).waitFor();
    expect(await page.locator(`[data-session-id="${ids.bob.sessionId}"]`).count()).toBe(0);
    expect(await page.locator('[data-session-id]').count()).toBe(1);
    await page.close();

    const state = await rawRequest(`${dashboardUrl}api/state`, { method: 'GET', headers: auth(BOB) });
    const shown = (JSON.parse(state.body) as { sessions: Array<{ sessionId: string }> }).sessions;
    expect(shown.map((s) => s.sessionId)).toEqual([ids.bob.sessionId]);
    expect(state.body).not.toContain('alice-work');
  });

  it("another principal's frames and take-over are answered as an unknown session", async () => {
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

  it("the operator's main token sees every principal's sessions", async () => {
    const page = await openDashboard(OPERATOR);
    await page.locator(`[data-session-id="${ids.alice.sessionId}"]`).waitFor();
    await page.locator(`[data-session-id="${ids.bob.sessionId}"]`).waitFor();
    await page.close();
  });
});
