import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createLogger } from '../../src/engine/logger.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { McpHarness, testConfig } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

type Address = { sessionId: string; pageId: string };

let site: FixtureServer;
let h: McpHarness;
let loggedClient: Client;
/** Everything the runtime and the server logged, at debug level: saved state must never be in it. */
const logLines: string[] = [];

const logger = createLogger('debug', (line) => void logLines.push(line));

// The file's harness, on its own copy of the fixtures (files share one module graph per worker): its
// runtime logs into logLines.
const test = fixtureTest.extend(
  'harness',
  { scope: 'file' },
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  async ({}, { onCleanup }): Promise<McpHarness> => {
    const harness = await McpHarness.start({}, new BrowserMesh({ config: testConfig(), logger }));
    onCleanup(() => harness.close());
    return harness;
  },
);

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  site.route('/state/storage', (req, res) => {
    const set = new URL(req.url ?? '/', site.origin).searchParams.get('set');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>storage</title><p id="out"></p><script>
      ${set ? `localStorage.setItem('cart', ${JSON.stringify(set)});` : ''}
      document.getElementById('out').textContent = 'cart=' + localStorage.getItem('cart');
    </script>`);
  });
  h = harness;
  // The harness's own server logs nothing; a second connection with the capturing logger covers the server's logs.
  const server = createMcpServer({ mesh: h.mesh, logger });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  loggedClient = new Client({ name: 'logged', version: '1.0.0' });
  await loggedClient.connect(clientTransport);
});
test.afterAll(async () => {
  await loggedClient?.close();
});

async function logIn(at: Address, user: string, password: string): Promise<string> {
  const context = h.mesh.getSession(at.sessionId).browserContext;
  const response = await context.request.post(site.url('/shop/login'), {
    form: { username: user, password },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  const cookie = (await context.cookies()).find((c) => c.name === 'mesh_session');
  expect(cookie?.httpOnly).toBe(true);
  return cookie?.value ?? '';
}

async function whoami(at: Address): Promise<string | null> {
  await h.ok('browser_navigate', { ...at, url: site.url('/shop/whoami') });
  const { text } = await h.ok<{ text: string }>('browser_visible_text', at);
  return (JSON.parse(text) as { user: string | null }).user;
}

async function visibleText(at: Address, path: string): Promise<string> {
  await h.ok('browser_navigate', { ...at, url: site.url(path) });
  return (await h.ok<{ text: string }>('browser_visible_text', at)).text;
}

describe('saved state', () => {
  test('saves a logged-in session and starts a new one from it, logged in, with localStorage', async () => {
    const buyer = await h.session({ name: 'buyer' });
    const token = await logIn(buyer, 'buyer', 'buyer-pass');
    expect(await visibleText(buyer, '/state/storage?set=three-items')).toContain('cart=three-items');

    const saved = await loggedClient.callTool({
      name: 'browser_state_save',
      arguments: { sessionId: buyer.sessionId, stateId: 'buyer' },
    });
    expect(saved.isError).toBeFalsy();
    expect(saved.structuredContent).toMatchObject({
      stateId: 'buyer',
      replaced: false,
      cookies: 1,
      origins: 1,
    });
    expect(JSON.stringify(saved)).not.toContain(token);

    const restored = await loggedClient.callTool({
      name: 'browser_session_create',
      arguments: { name: 'again', stateId: 'buyer' },
    });
    const created = restored.structuredContent as {
      session: { sessionId: string; stateId: string };
      initialPage: { pageId: string };
    };
    expect(created.session.stateId).toBe('buyer');
    const again = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
    expect(await whoami(again)).toBe('buyer');
    expect(await visibleText(again, '/state/storage')).toContain('cart=three-items');

    // A fresh session without stateId starts logged out.
    const fresh = await h.session();
    expect(await whoami(fresh)).toBeNull();

    const file = join(h.mesh.config.dataDir, 'states', 'buyer.json');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(join(h.mesh.config.dataDir, 'states'))).mode & 0o777).toBe(0o700);
    expect(await fs.readFile(file, 'utf8')).toContain(token);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(token);
    expect(logLines.join('\n')).not.toContain('three-items');
    for (const at of [buyer, again, fresh]) await h.ok('browser_session_close', { sessionId: at.sessionId });
  });

  test('does not save or restore permissions granted by contextSettings', async () => {
    const settings = { permissions: [{ permission: 'geolocation', origin: site.origin }] };
    const granted = await h.session({ contextSettings: settings });
    await h.ok('browser_navigate', { ...granted, url: site.url('/state/storage') });
    const state = (at: Address) =>
      h.mesh
        .getSession(at.sessionId)
        .getPage(at.pageId)
        .page.evaluate(async () => (await navigator.permissions.query({ name: 'geolocation' })).state);
    expect(await state(granted)).toBe('granted');
    await h.ok('browser_state_save', { sessionId: granted.sessionId, stateId: 'with-permissions' });
    const text = await fs.readFile(join(h.mesh.config.dataDir, 'states', 'with-permissions.json'), 'utf8');
    expect(text).not.toContain('geolocation');

    const restored = await h.session({ stateId: 'with-permissions' });
    await h.ok('browser_navigate', { ...restored, url: site.url('/state/storage') });
    expect(await state(restored)).toBe('prompt');
    for (const at of [granted, restored]) await h.ok('browser_session_close', { sessionId: at.sessionId });
  });

  test('serializes concurrent saves to one id: every save succeeds and the file stays whole', async () => {
    const sessions = await Promise.all([h.session(), h.session(), h.session()]);
    await h.ok('browser_state_save', { sessionId: sessions[0]?.sessionId, stateId: 'contended' });
    const results = await Promise.all(
      sessions.flatMap((at) =>
        [1, 2].map(() =>
          h.ok<{ replaced: boolean }>('browser_state_save', {
            sessionId: at.sessionId,
            stateId: 'contended',
          }),
        ),
      ),
    );
    expect(results.every((r) => r.replaced)).toBe(true);
    const dir = join(h.mesh.config.dataDir, 'states');
    expect((await fs.readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const restored = await h.session({ stateId: 'contended' });
    for (const at of [...sessions, restored])
      await h.ok('browser_session_close', { sessionId: at.sessionId });
  });

  test('refuses traversal and odd ids at the boundary', async () => {
    const at = await h.session();
    for (const stateId of ['../escape', 'a/b', '.hidden', 'x.json', '', 'a'.repeat(65), 'C:\\x']) {
      const saved = await h.err('browser_state_save', { sessionId: at.sessionId, stateId });
      expect(saved).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'stateId' } });
      expect((await h.err('browser_session_create', { stateId })).code).toBe('INVALID_ARGUMENT');
      expect((await h.err('browser_state_remove', { stateId })).code).toBe('INVALID_ARGUMENT');
    }
    await expect(fs.stat(join(h.mesh.config.dataDir, 'escape.json'))).rejects.toThrow();
    await h.ok('browser_session_close', { sessionId: at.sessionId });
  });

  test('reports unknown and corrupted states clearly and creates no session for them', async () => {
    const before = (await h.ok<{ sessions: unknown[] }>('browser_session_list')).sessions.length;
    expect((await h.err('browser_session_create', { stateId: 'nobody' })).code).toBe('STATE_NOT_FOUND');
    const dir = join(h.mesh.config.dataDir, 'states');
    await fs.mkdir(dir, { recursive: true });
    const valid = await fs.readFile(join(dir, 'buyer.json'), 'utf8');
    await fs.writeFile(join(dir, 'truncated.json'), valid.slice(0, Math.floor(valid.length / 2)));
    await fs.writeFile(join(dir, 'foreign.json'), JSON.stringify({ hello: 'world' }));
    for (const stateId of ['truncated', 'foreign']) {
      const error = await h.err('browser_session_create', { stateId });
      expect(error).toMatchObject({ code: 'STATE_CORRUPTED', details: { stateId } });
    }
    expect((await h.ok<{ sessions: unknown[] }>('browser_session_list')).sessions.length).toBe(before);
  });

  test('lists and removes states idempotently', async () => {
    const list = await h.ok<{
      states: Array<{ stateId: string; bytes: number }>;
      totalBytes: number;
      limits: Record<string, number>;
    }>('browser_state_list');
    expect(list.states.map((s) => s.stateId)).toEqual(
      expect.arrayContaining(['buyer', 'contended', 'truncated']),
    );
    expect(list.limits).toEqual({ maxStates: 100, maxStateBytes: 1_048_576, maxTotalBytes: 16_777_216 });
    expect(await h.ok('browser_state_remove', { stateId: 'truncated' })).toMatchObject({ removed: true });
    expect(await h.ok('browser_state_remove', { stateId: 'truncated' })).toMatchObject({ removed: false });
  });
});

describe('saved state quotas', () => {
  let q: McpHarness;
  test.beforeAll(async () => {
    q = await McpHarness.start({ maxSavedStates: 1, maxStateBytes: 2048 });
  });
  test.afterAll(async () => {
    await q?.close();
  });

  test('refuses a save over a quota and keeps the old state', async () => {
    const at = await q.session();
    await q.ok('browser_navigate', { ...at, url: site.url('/state/storage?set=small') });
    await q.ok('browser_state_save', { sessionId: at.sessionId, stateId: 'only' });
    const second = await q.err('browser_state_save', { sessionId: at.sessionId, stateId: 'second' });
    expect(second).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { field: 'maxSavedStates', limit: 1 } });

    await q.ok('browser_navigate', { ...at, url: site.url(`/state/storage?set=${'x'.repeat(3000)}`) });
    const big = await q.err('browser_state_save', { sessionId: at.sessionId, stateId: 'only' });
    expect(big).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { field: 'maxStateBytes', limit: 2048 } });

    const restored = await q.session({ stateId: 'only' });
    await q.ok('browser_navigate', { ...restored, url: site.url('/state/storage') });
    expect((await q.ok<{ text: string }>('browser_visible_text', restored)).text).toContain('cart=small');
  });
});

describe('persistence disabled', () => {
  let off: McpHarness;
  test.beforeAll(async () => {
    off = await McpHarness.start({ persistence: false });
  });
  test.afterAll(async () => {
    await off?.close();
  });

  test('answers PERSISTENCE_DISABLED everywhere and never touches the data directory', async () => {
    const at = await off.session();
    expect((await off.err('browser_state_save', { sessionId: at.sessionId, stateId: 'a' })).code).toBe(
      'PERSISTENCE_DISABLED',
    );
    expect((await off.err('browser_state_list')).code).toBe('PERSISTENCE_DISABLED');
    expect((await off.err('browser_state_remove', { stateId: 'a' })).code).toBe('PERSISTENCE_DISABLED');
    expect((await off.err('browser_session_create', { stateId: 'a' })).code).toBe('PERSISTENCE_DISABLED');
    await expect(fs.stat(join(off.mesh.config.dataDir, 'states'))).rejects.toThrow();
  });
});
