/**
 * Per-principal namespaces over Streamable HTTP: each token is a principal with its own saved
 * states, session quota and runtime counts, and an Mcp-Session-Id only answers the principal that
 * opened it. Loopback only.
 */
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import type { RunningHttpServer } from '../../src/mcp/http.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { connectHttp, err, INITIALIZE, ok, rawRequest, type HttpClient } from './support/mcp-http.js';

type Created = { session: { sessionId: string }; initialPage: { pageId: string } };
type Info = { sessions: { live: number; max: number } };

const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789ab';

let site: FixtureServer;
let server: RunningHttpServer;
let alice: HttpClient;
let bob: HttpClient;

// The file's site, mesh and HTTP server come from the shared fixtures; its two clients are its own.
const test = fixtureTest
  .extend('meshConfig', { scope: 'file' }, () => ({ maxSessionsPerPrincipal: 2 }))
  .extend('httpOptions', { scope: 'file' }, () => ({
    tokens: [
      { principal: 'alice', token: ALICE },
      { principal: 'bob', token: BOB },
    ],
  }));

test.beforeAll(async ({ site: fileSite, httpServer }) => {
  site = fileSite;
  server = httpServer;
  alice = await connectHttp(server.url, { token: ALICE });
  bob = await connectHttp(server.url, { token: BOB });
});
test.afterAll(async () => {
  await alice?.client.close();
  await bob?.client.close();
});

describe('HTTP principals', () => {
  test("keeps one principal's saved states (and their cookies) away from another", async () => {
    const a = await ok<Created>(alice.client, 'browser_session_create', { name: 'alice' });
    const at = { sessionId: a.session.sessionId, pageId: a.initialPage.pageId };
    await ok(alice.client, 'browser_navigate', { ...at, url: site.url('/shop/login') });
    await ok(alice.client, 'browser_state_save', { sessionId: at.sessionId, stateId: 'alice-login' });

    const bobList = await ok<{ states: Array<{ stateId: string }> }>(bob.client, 'browser_state_list');
    expect(bobList.states.map((s) => s.stateId)).not.toContain('alice-login');
    expect((await err(bob.client, 'browser_session_create', { stateId: 'alice-login' })).code).toBe(
      'STATE_NOT_FOUND',
    );
    expect(await ok(bob.client, 'browser_state_remove', { stateId: 'alice-login' })).toMatchObject({
      removed: false,
    });
    const aliceList = await ok<{ states: Array<{ stateId: string }> }>(alice.client, 'browser_state_list');
    const aliceEntry = aliceList.states.find((s) => s.stateId === 'alice-login');
    expect(aliceEntry).toBeDefined();
    // Bob saving under the same name writes his own state, never over Alice's.
    const b = await ok<Created>(bob.client, 'browser_session_create', { name: 'bob' });
    await ok(bob.client, 'browser_navigate', {
      sessionId: b.session.sessionId,
      pageId: b.initialPage.pageId,
      url: site.url('/quiet'),
    });
    await ok(bob.client, 'browser_state_save', { sessionId: b.session.sessionId, stateId: 'alice-login' });
    const after = await ok<{ states: Array<{ stateId: string }> }>(alice.client, 'browser_state_list');
    expect(after.states.find((s) => s.stateId === 'alice-login')).toEqual(aliceEntry);
    await ok(bob.client, 'browser_state_remove', { stateId: 'alice-login' });
    expect(
      (await ok<{ states: Array<{ stateId: string }> }>(alice.client, 'browser_state_list')).states.find(
        (s) => s.stateId === 'alice-login',
      ),
    ).toEqual(aliceEntry);
    await ok(bob.client, 'browser_session_close', { sessionId: b.session.sessionId });
    await ok(alice.client, 'browser_session_close', { sessionId: at.sessionId });
  });

  test('counts and limits sessions per principal', async () => {
    const first = await ok<Created>(alice.client, 'browser_session_create');
    const second = await ok<Created>(alice.client, 'browser_session_create');
    const refused = await err(alice.client, 'browser_session_create');
    expect(refused.code).toBe('LIMIT_EXCEEDED');
    expect((await ok<Info>(alice.client, 'browser_runtime_info')).sessions).toMatchObject({
      live: 2,
      max: 2,
    });
    // Bob sees none of Alice's sessions in the counts, and still has his own slots.
    expect((await ok<Info>(bob.client, 'browser_runtime_info')).sessions).toMatchObject({ live: 0, max: 2 });
    const bobs = await ok<Created>(bob.client, 'browser_session_create');
    for (const id of [first.session.sessionId, second.session.sessionId])
      await ok(alice.client, 'browser_session_close', { sessionId: id });
    await ok(bob.client, 'browser_session_close', { sessionId: bobs.session.sessionId });
  });

  test('binds an Mcp-Session-Id to its principal: another token cannot use it', async () => {
    const sessionId = alice.transport.sessionId ?? '';
    expect(sessionId).not.toBe('');
    const list = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    const asBob = await rawRequest(server.url, {
      headers: { ...headers, Authorization: `Bearer ${BOB}` },
      body: JSON.stringify(list),
    });
    expect(asBob.status).toBe(404);
    const asAlice = await rawRequest(server.url, {
      headers: { ...headers, Authorization: `Bearer ${ALICE}` },
      body: JSON.stringify(list),
    });
    expect(asAlice.status).toBe(200);
  });

  test('refuses an unknown or missing token with 401, naming neither', async () => {
    for (const auth of ['Bearer not-a-known-token-123', '', 'Basic abc']) {
      const response = await rawRequest(server.url, {
        headers: auth ? { Authorization: auth } : {},
        body: JSON.stringify(INITIALIZE),
      });
      expect(response.status).toBe(401);
      expect(response.body).not.toContain('not-a-known-token');
    }
  });
});
