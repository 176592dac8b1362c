/**
 * A `--cdp-endpoint` on this machine's loopback is a browser on this machine, so each
 * session's context sends every connection through its own guard proxy (bypass list `<-loopback>`),
 * as a launched browser's does: the URL policy is a boundary there, not best-effort interception.
 * With `--guard-host`, a cdp browser on another machine gets the same: each session's guard listens
 * on that address, admits only the endpoint's host, and is the context's proxy (request interception
 * stays on). Loopback only: the operator's Chromium listens on 127.0.0.1 and plays the other machine
 * (guard host 127.0.0.1), the fixture on 127.0.0.1 is allowed, a trap on the alias 127.0.0.2 is
 * configured as blocked and must receive no connection, and the alias 127.0.0.3 plays a stranger.
 */
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { startTrap, type Trap } from '../fixtures/lib/trap.mjs';
import { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { startRemoteChromium, stopRemoteChromium, type RemoteChromium } from './support/remote-chromium.js';
import { greetFrom, refusedAt } from './support/guard-listener.js';
import { installTrapPages } from './support/trap-pages.js';
import { waitFor } from './support/wait.js';

let site: FixtureServer;
let trap: Trap;
let remote: RemoteChromium;
let h: McpHarness;
let s: { sessionId: string; pageId: string };
let hr: McpHarness;
let sr: { sessionId: string; pageId: string };

// The file's own copy of the fixtures (files share one module graph per worker): the operator's
// Chromium, started once for the file and stopped after its harness, and the main harness on it.
const test = fixtureTest
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('remote', { scope: 'file' }, async ({}, { onCleanup }): Promise<RemoteChromium> => {
    const chromium = await startRemoteChromium({ noNetworkPrediction: true });
    onCleanup(() => stopRemoteChromium(chromium));
    return chromium;
  })
  .extend('harnessConfig', { scope: 'file' }, ({ remote: chromium }): Partial<Config> => ({
    provider: 'cdp',
    cdpEndpoint: chromium.httpEndpoint,
    blockedAddresses: ['127.0.0.2/32'],
    timeoutMs: 30_000,
  }));

test.beforeAll(async ({ site: fileSite, remote: fileRemote, harness }) => {
  site = fileSite;
  remote = fileRemote;
  trap = await startTrap('127.0.0.2');
  installTrapPages(site, '/cguard', '127.0.0.2', trap.port);
  h = harness;
  // The remote guard's harness: a second, differently configured one (--guard-host).
  hr = await McpHarness.start({
    provider: 'cdp',
    cdpEndpoint: remote.httpEndpoint,
    guardHost: '127.0.0.1',
    blockedAddresses: ['127.0.0.2/32'],
    timeoutMs: 30_000,
  });
  [s, sr] = await Promise.all([h.session(), hr.session()]);
}, 120_000);

test.afterAll(async () => {
  await hr?.close();
  await trap?.close();
});

function guardConnects(): number {
  const stats = h.mesh.getSession(s.sessionId).urlGuard?.guardStats();
  if (!stats) throw new Error('the session has no guard proxy');
  return stats.connects;
}

function remoteGuardStats(): { connects: number; refusedPeers: number } {
  const stats = hr.mesh.getSession(sr.sessionId).urlGuard?.guardStats();
  if (!stats) throw new Error('the session has no guard proxy');
  return stats;
}

describe("a cdp browser on this machine's loopback behind its sessions' guards", () => {
  test('says the browser is guarded: guard_proxy, a boundary', async () => {
    const info = await h.ok<{ urlPolicy: { enforcement: string; boundary: boolean } }>(
      'browser_runtime_info',
      {},
    );
    expect(info.urlPolicy).toMatchObject({ enforcement: 'guard_proxy', boundary: true });
  });

  test("sends the page's connections through the session's guard", async () => {
    const before = guardConnects();
    const loaded = await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') });
    expect(loaded.status).toBe(200);
    // The fixture (loopback) was reached through the guard: no implicit loopback bypass.
    await waitFor(() => guardConnects() > before, 10_000, 'the guard to see the navigation');
  });

  test('blocks a fetch, an iframe, a worker and a WebSocket; the trap receives nothing', async () => {
    const before = trap.connections();
    await h.ok('browser_navigate', { ...s, url: site.url('/cguard/page') });
    await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 20_000 });
    const text = (await h.ok<{ text: string }>('browser_visible_text', s)).text;
    for (const key of ['fetch', 'worker']) expect(text).toContain(`"${key}":"failed"`);
    expect(text).toContain('"ws":"refused"');
    expect(trap.connections()).toBe(before);
  }, 60_000);

  test('lets a service worker install; its install-time fetch and update check reach nothing', async () => {
    const before = trap.connections();
    await h.ok('browser_navigate', { ...s, url: site.url('/cguard/service-worker') });
    await h.ok('browser_wait', { ...s, text: 'sw ready', timeoutMs: 20_000 });
    expect(trap.connections()).toBe(before);
  }, 60_000);

  test('refuses a navigation to the blocked alias; the session keeps working', async () => {
    const error = await h.err('browser_navigate', { ...s, url: `${trap.origin}/direct` });
    expect(error.code).toBe('NAVIGATION_BLOCKED');
    expect(
      (await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') })).status,
    ).toBe(200);
    expect(trap.connections()).toBe(0);
  }, 60_000);
});

describe("a cdp browser on another machine behind its sessions' guards (--guard-host)", () => {
  test('says the browser is guarded: guard_proxy, a boundary, naming --guard-host', async () => {
    const info = await hr.ok<{ urlPolicy: { enforcement: string; boundary: boolean; detail: string } }>(
      'browser_runtime_info',
      {},
    );
    expect(info.urlPolicy).toMatchObject({ enforcement: 'guard_proxy', boundary: true });
    expect(info.urlPolicy.detail).toContain('--guard-host');
  });

  test("sends the page's connections through the session's listener on the guard host", async () => {
    const guard = hr.mesh.getSession(sr.sessionId).urlGuard;
    expect(guard?.contextProxy()).toEqual({ server: guard?.nodeProxy()?.server, bypass: '<-loopback>' });
    const before = remoteGuardStats().connects;
    const loaded = await hr.ok<{ status: number }>('browser_navigate', { ...sr, url: site.url('/quiet') });
    expect(loaded.status).toBe(200);
    await waitFor(() => remoteGuardStats().connects > before, 10_000, 'the guard to see the navigation');
    expect(remoteGuardStats().refusedPeers).toBe(0);
  });

  test("closes a connection to the session's listener from any address but the endpoint's host", async () => {
    const server = hr.mesh.getSession(sr.sessionId).urlGuard?.nodeProxy()?.server ?? '';
    const port = Number(new URL(server).port);
    const connectsBefore = remoteGuardStats().connects;
    expect(await greetFrom(port, '127.0.0.3')).toBe('closed');
    expect(remoteGuardStats().refusedPeers).toBe(1);
    expect(remoteGuardStats().connects).toBe(connectsBefore);
    // The endpoint's host is admitted: it gets the SOCKS5 answer (version 5, no authentication).
    expect(await greetFrom(port, '127.0.0.1')).toBe('0500');
  });

  test('blocks a fetch, an iframe, a worker and a WebSocket; the trap receives nothing', async () => {
    const before = trap.connections();
    await hr.ok('browser_navigate', { ...sr, url: site.url('/cguard/page') });
    await hr.ok('browser_wait', { ...sr, text: 'settled', timeoutMs: 20_000 });
    const text = (await hr.ok<{ text: string }>('browser_visible_text', sr)).text;
    for (const key of ['fetch', 'worker']) expect(text).toContain(`"${key}":"failed"`);
    expect(text).toContain('"ws":"refused"');
    expect(trap.connections()).toBe(before);
  }, 60_000);

  test('refuses service workers (interception stays on); an update check reaches nothing', async () => {
    const before = trap.connections();
    await hr.ok('browser_navigate', { ...sr, url: site.url('/cguard/service-worker') });
    await hr.ok('browser_wait', { ...sr, text: 'sw failed', timeoutMs: 20_000 });
    expect(trap.connections()).toBe(before);
  }, 60_000);

  test('refuses a navigation to the blocked alias and closes the listener with the session', async () => {
    const error = await hr.err('browser_navigate', { ...sr, url: `${trap.origin}/direct` });
    expect(error.code).toBe('NAVIGATION_BLOCKED');
    expect(trap.connections()).toBe(0);
    const { sessionId } = await hr.session();
    const server = hr.mesh.getSession(sessionId).urlGuard?.nodeProxy()?.server;
    expect(server).toMatch(/^socks5:\/\/127\.0\.0\.1:\d+$/);
    await hr.ok('browser_session_close', { sessionId });
    const port = Number(new URL(server ?? '').port);
    await waitFor(() => refusedAt(port), 10_000, 'the closed session to stop listening');
  }, 120_000);
});
