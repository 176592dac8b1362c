/**
 * A Selenium Grid session's browser gets its session's guard proxy through its
 * capabilities (--guard-host), so the URL policy is a boundary there too. Loopback only: the
 * shared Grid runs on 127.0.0.1 (guard host 127.0.0.1), the fixture on 127.0.0.1 is allowed, and a
 * trap on the alias 127.0.0.2 is configured as blocked and must receive no connection.
 */
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { startTrap, type Trap } from '../fixtures/lib/trap.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { gridUnavailableReason } from './support/selenium-grid.js';
import { sharedGrid } from './support/shared-grid.js';
import type { Grid } from './support/selenium-grid.js';
import { greetFrom, refusedAt } from './support/guard-listener.js';
import { installTrapPages } from './support/trap-pages.js';
import { waitFor } from './support/wait.js';

const skip = gridUnavailableReason();
let site: FixtureServer;
let trap: Trap;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's own copy of the fixtures (files share one module graph per worker): the shared Grid, let
// go of after the file's harness, and that harness's settings, its browsers from the Grid.
const test = fixtureTest
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('grid', { scope: 'file' }, async ({}, { onCleanup }): Promise<Grid> => {
    const grid = await sharedGrid();
    onCleanup(() => grid.stop());
    return grid;
  })
  .extend('harnessConfig', { scope: 'file' }, ({ grid }): Partial<Config> => ({
    provider: 'selenium',
    seleniumUrl: grid.url,
    guardHost: '127.0.0.1',
    headless: true,
    blockedAddresses: ['127.0.0.2/32'],
    timeoutMs: 30_000,
  }));

function guardStats(): { connects: number; refusedPeers: number } {
  const stats = h.mesh.getSession(s.sessionId).urlGuard?.guardStats();
  if (!stats) throw new Error('the session has no guard proxy');
  return stats;
}

describe.skipIf(skip !== undefined)('a Selenium Grid browser behind its session guard', () => {
  // In the describe, so that without a Grid nothing asks for one.
  test.beforeAll(async ({ site: fileSite, harness }) => {
    site = fileSite;
    trap = await startTrap('127.0.0.2');
    installTrapPages(site, '/gguard', '127.0.0.2', trap.port);
    h = harness;
    s = await h.session();
  }, 180_000);

  test.afterAll(async () => {
    await trap?.close();
  });

  test('says the browser is guarded: guard_proxy, a boundary', async () => {
    const info = await h.ok<{ urlPolicy: { enforcement: string; boundary: boolean } }>(
      'browser_runtime_info',
      {},
    );
    expect(info.urlPolicy).toMatchObject({ enforcement: 'guard_proxy', boundary: true });
  });

  test("sends the page's connections through the session's guard, admitting only its node", async () => {
    const before = guardStats().connects;
    const loaded = await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') });
    expect(loaded.status).toBe(200);
    // The fixture (loopback, this machine) was reached through the guard: it judged the connection.
    await waitFor(() => guardStats().connects > before, 10_000, 'the guard to see the navigation');
    expect(guardStats().refusedPeers).toBe(0);
  });

  test("closes a connection to the session's listener from any address but the node's", async () => {
    // The node is 127.0.0.1; the loopback alias 127.0.0.3 plays another machine.
    const server = h.mesh.getSession(s.sessionId).urlGuard?.nodeProxy()?.server ?? '';
    const port = Number(new URL(server).port);
    // Closed unheard: the stranger's greeting got no answer and counts as a refused peer. (Its
    // greeting carries no CONNECT, so the count of judged CONNECTs says nothing about it; the last
    // page's late requests, its favicon, may still add to that count meanwhile.)
    expect(await greetFrom(port, '127.0.0.3')).toBe('closed');
    expect(guardStats().refusedPeers).toBe(1);
  });

  test('blocks a fetch, an iframe, a worker and a WebSocket; the trap receives nothing', async () => {
    const before = trap.connections();
    await h.ok('browser_navigate', { ...s, url: site.url('/gguard/page') });
    await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 20_000 });
    const text = (await h.ok<{ text: string }>('browser_visible_text', s)).text;
    for (const key of ['fetch', 'worker']) expect(text).toContain(`"${key}":"failed"`);
    expect(text).toContain('"ws":"refused"');
    expect(trap.connections()).toBe(before);
    // The session keeps working.
    expect(
      (await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') })).status,
    ).toBe(200);
    expect(trap.connections()).toBe(before);
  }, 60_000);

  test('refuses service workers (interception stays on); an update check reaches nothing', async () => {
    const before = trap.connections();
    await h.ok('browser_navigate', { ...s, url: site.url('/gguard/service-worker') });
    await h.ok('browser_wait', { ...s, text: 'sw failed', timeoutMs: 20_000 });
    expect(trap.connections()).toBe(before);
  }, 60_000);

  test('refuses a navigation to the blocked alias and closes the listener with the session', async () => {
    const error = await h.err('browser_navigate', { ...s, url: `${trap.origin}/direct` });
    expect(error.code).toBe('NAVIGATION_BLOCKED');
    expect(trap.connections()).toBe(0);
    const { sessionId } = await h.session();
    const guard = h.mesh.getSession(sessionId).urlGuard;
    const server = guard?.nodeProxy()?.server;
    expect(server).toMatch(/^socks5:\/\/127\.0\.0\.1:\d+$/);
    await h.ok('browser_session_close', { sessionId });
    const port = Number(new URL(server ?? '').port);
    await waitFor(() => refusedAt(port), 10_000, 'the closed session to stop listening');
  }, 120_000);
});
