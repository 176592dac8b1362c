/**
 * Issue 25: a `--cdp-endpoint` on this machine's loopback is a browser on this machine, so each
 * session's context sends every connection through its own guard proxy (bypass list `<-loopback>`),
 * as a launched browser's does: the URL policy is a boundary there, not best-effort interception.
 * Loopback only: the operator's Chromium listens on 127.0.0.1, the fixture on 127.0.0.1 is allowed,
 * and a trap on the alias 127.0.0.2 is configured as blocked and must receive no connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { startTrap, type Trap } from '../fixtures/lib/trap.mjs';
import { McpHarness } from '../helpers/harness.js';
import { startRemoteChromium, stopRemoteChromium, type RemoteChromium } from './support/remote-chromium.js';
import { installTrapPages } from './support/trap-pages.js';
import { waitFor } from './support/wait.js';

let site: FixtureServer;
let trap: Trap;
let remote: RemoteChromium;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

beforeAll(async () => {
  [site, trap, remote] = await Promise.all([
    startFixtureServer(),
    startTrap('127.0.0.2'),
    startRemoteChromium({ noNetworkPrediction: true }),
  ]);
  installTrapPages(site, '/cguard', '127.0.0.2', trap.port);
  h = await McpHarness.start({
    provider: 'cdp',
    cdpEndpoint: remote.httpEndpoint,
    blockedAddresses: ['127.0.0.2/32'],
    timeoutMs: 30_000,
  });
  s = await h.session();
}, 120_000);

afterAll(async () => {
  await h?.close();
  if (remote) await stopRemoteChromium(remote);
  await site?.close();
  await trap?.close();
});

function guardConnects(): number {
  const stats = h.mesh.getSession(s.sessionId).urlGuard?.guardStats();
  if (!stats) throw new Error('the session has no guard proxy');
  return stats.connects;
}

describe("a cdp browser on this machine's loopback behind its sessions' guards", () => {
  it('says the browser is guarded: guard_proxy, a boundary', async () => {
    const info = await h.ok<{ urlPolicy: { enforcement: string; boundary: boolean } }>(
      'browser_runtime_info',
      {},
    );
    expect(info.urlPolicy).toMatchObject({ enforcement: 'guard_proxy', boundary: true });
  });

  it("sends the page's connections through the session's guard", async () => {
    const before = guardConnects();
    const loaded = await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') });
    expect(loaded.status).toBe(200);
    // The fixture (loopback) was reached through the guard: no implicit loopback bypass.
    await waitFor(() => guardConnects() > before, 10_000, 'the guard to see the navigation');
  });

  it('blocks a fetch, an iframe, a worker and a WebSocket; the trap receives nothing', async () => {
    const before = trap.connections();
    await h.ok('browser_navigate', { ...s, url: site.url('/cguard/page') });
    await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 20_000 });
    const text = (await h.ok<{ text: string }>('browser_visible_text', s)).text;
    for (const key of ['fetch', 'worker']) expect(text).toContain(`"${key}":"failed"`);
    expect(text).toContain('"ws":"refused"');
    expect(trap.connections()).toBe(before);
  }, 60_000);

  it('lets a service worker install; its install-time fetch and update check reach nothing', async () => {
    const before = trap.connections();
    await h.ok('browser_navigate', { ...s, url: site.url('/cguard/service-worker') });
    await h.ok('browser_wait', { ...s, text: 'sw ready', timeoutMs: 20_000 });
    expect(trap.connections()).toBe(before);
  }, 60_000);

  it('refuses a navigation to the blocked alias; the session keeps working', async () => {
    const error = await h.err('browser_navigate', { ...s, url: `${trap.origin}/direct` });
    expect(error.code).toBe('NAVIGATION_BLOCKED');
    expect(
      (await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') })).status,
    ).toBe(200);
    expect(trap.connections()).toBe(0);
  }, 60_000);
});
