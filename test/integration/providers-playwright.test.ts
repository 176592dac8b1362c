/**
 * The playwright provider against a real `playwright run-server` (playwright-core's own CLI) on
 * 127.0.0.1, launching Debian's Chromium: one remote browser per session, every connection of which
 * is dialed by BrowserMesh through the session's guard. Loopback only: the fixture site on 127.0.0.1
 * is allowed, a trap on the alias 127.0.0.2 is configured as blocked and must receive no connection.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { vi } from 'vitest';
import type { Config } from '../../src/config/load.js';
import { PerSessionCdpProvider } from '../../src/engine/providers/cdp-per-session.js';
import { dialStatsOf, PlaywrightProvider } from '../../src/engine/providers/playwright.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import { startTrap, type Trap } from '../fixtures/lib/trap.mjs';
import type { FixtureServer } from '../fixtures/server.mjs';
import { CHROMIUM, McpHarness, testConfig } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { startPlaywrightServer, type PlaywrightServer } from './support/playwright-server.js';
import { startRemoteChromium, stopRemoteChromium } from './support/remote-chromium.js';
import { installTrapPages } from './support/trap-pages.js';

let site: FixtureServer;
let trap: Trap;
let h: McpHarness;

const test = fixtureTest
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('pwServer', { scope: 'file' }, async ({}, { onCleanup }): Promise<PlaywrightServer> => {
    const server = await startPlaywrightServer();
    onCleanup(() => server.stop());
    return server;
  })
  .extend('harnessConfig', { scope: 'file' }, ({ pwServer }): Partial<Config> => ({
    playwrightEndpoint: pwServer.endpoint,
    provider: 'playwright',
    blockedAddresses: ['127.0.0.2/32'],
    tools: ['core', 'observability', 'evaluate', 'files', 'persistence', 'code', 'state'],
    timeoutMs: 45_000,
  }));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  trap = await startTrap('127.0.0.2');
  installTrapPages(site, '/pwguard', '127.0.0.2', trap.port);
  site.route('/pwguard/redirect', (_req, res) => {
    res.writeHead(302, { location: `${trap.origin}/redirected` });
    res.end();
  });
}, 120_000);

test.afterAll(async () => {
  await trap?.close();
});

function dialStats(sessionId: string): { requested: number; refused: number } {
  const browser = h.mesh.getSession(sessionId).browserLease?.browser;
  const stats = browser ? dialStatsOf(browser) : undefined;
  if (!stats) throw new Error('the session has no playwright dial point');
  return stats;
}

describe('the playwright provider on a run-server endpoint', () => {
  test('places isolated sessions, each on its own remote browser, and says so', async ({ pwServer }) => {
    const [a, b] = await Promise.all([h.session(), h.session()]);
    const info = await h.ok<{ sessions: Array<{ sessionId: string; placement: unknown }> }>(
      'browser_session_list',
    );
    const placed = info.sessions.find((x) => x.sessionId === a.sessionId)?.placement;
    expect(placed).toEqual({ provider: 'playwright', node: new URL(pwServer.endpoint).origin });
    expect(h.mesh.getSession(a.sessionId).browserLease?.browser).not.toBe(
      h.mesh.getSession(b.sessionId).browserLease?.browser,
    );
    await h.ok('browser_navigate', { ...a, url: site.url('/shop/') });
    await h.ok('browser_evaluate', { ...a, script: "document.cookie = 'who=a'" });
    await h.ok('browser_navigate', { ...b, url: site.url('/shop/') });
    const cookie = await h.ok<{ value: unknown }>('browser_evaluate', {
      ...b,
      script: 'document.cookie',
    });
    expect(JSON.stringify(cookie)).not.toContain('who=a');
    // The remote browser's connections to the site were dialed here, through the guard.
    expect(dialStats(b.sessionId).requested).toBeGreaterThan(0);
    const runtime = await h.ok<{ urlPolicy: { enforcement: string; boundary: boolean } }>(
      'browser_runtime_info',
    );
    expect(runtime.urlPolicy).toMatchObject({ enforcement: 'guard_proxy', boundary: true });
    await Promise.all([a, b].map((s) => h.ok('browser_session_close', { sessionId: s.sessionId })));
  }, 120_000);

  test('runs the shop checkout; WebRTC is absent from remote pages', async ({ session: s }) => {
    const role = (r: string, name: string) => ({ locator: { role: r, name } });
    const actions = [
      { action: 'goto', url: site.url('/shop/') },
      { action: 'fill', ...role('searchbox', 'Search'), value: 'backpack' },
      { action: 'click', ...role('button', 'Search') },
      { action: 'click', ...role('link', 'Mesh Backpack') },
      { action: 'click', ...role('button', 'Add to cart') },
      { action: 'goto', url: site.url('/shop/cart') },
      { action: 'click', ...role('link', 'Checkout') },
      { action: 'fill', locator: { label: 'Full name' }, value: 'Ada Lovelace' },
      { action: 'fill', locator: { label: 'Email' }, value: 'ada@example.com' },
      { action: 'fill', locator: { label: 'Address' }, value: '12 Analytical St' },
      { action: 'fill', locator: { label: 'City' }, value: 'Berlin' },
      { action: 'fill', locator: { label: 'Postal code' }, value: '10115' },
      { action: 'select', locator: { label: 'Country' }, value: 'DE' },
      { action: 'check', ...role('radio', 'Express') },
      { action: 'check', ...role('checkbox', 'I accept the terms') },
      { action: 'click', ...role('button', 'Place order') },
      { action: 'wait', url: '**/shop/confirmation/*' },
    ];
    const out = await h.ok<{ completed: number; url: string }>('browser_run', {
      ...s,
      actions,
      timeoutMs: 60_000,
    });
    expect(out.completed).toBe(actions.length);
    expect(out.url).toMatch(/\/shop\/confirmation\/ORD-/);
    const rtc = await h.ok<{ value: unknown }>('browser_evaluate', {
      ...s,
      script: 'typeof RTCPeerConnection',
    });
    expect(rtc.value).toBe('undefined');
  }, 120_000);

  test('loads a saved state into a remote session', async ({ session: s }) => {
    await h.ok('browser_navigate', { ...s, url: site.url('/shop/') });
    await h.ok('browser_evaluate', { ...s, script: "document.cookie = 'saved=yes; max-age=3600'" });
    await h.ok('browser_state_save', { sessionId: s.sessionId, stateId: 'pw-state' });
    const restored = await h.session({ stateId: 'pw-state' });
    await h.ok('browser_navigate', { ...restored, url: site.url('/shop/') });
    const cookie = await h.ok<{ value: unknown }>('browser_evaluate', {
      ...restored,
      script: 'document.cookie',
    });
    expect(String(cookie.value)).toContain('saved=yes');
    await h.ok('browser_session_close', { sessionId: restored.sessionId });
  }, 120_000);

  test("saves a download in the session's files on this machine", async ({ session: s }) => {
    await h.ok('browser_navigate', { ...s, url: site.url('/files/download') });
    const result = await h.ok<{ downloads?: Array<{ name: string; bytes: number; state: string }> }>(
      'browser_click',
      { ...s, locator: { role: 'link', name: 'Text report' } },
    );
    expect(result.downloads?.[0]).toMatchObject({ name: 'report.txt', bytes: 26, state: 'completed' });
    const folder = join(h.mesh.config.dataDir, 'sessions', s.sessionId);
    expect(existsSync(folder)).toBe(true);
    expect(readdirSync(folder, { recursive: true }).length).toBeGreaterThan(0);
  }, 120_000);

  test('refuses the blocked alias at the dial point: fetch, worker, WebSocket, navigation, redirect', async ({
    session: s,
  }) => {
    const guard = h.mesh.getSession(s.sessionId).urlGuard;
    expect(guard?.contextProxy()).toBeUndefined();
    expect(guard?.tunnelProxy()).toMatch(/^socks5:\/\/127\.0\.0\.1:\d+$/);
    const before = dialStats(s.sessionId).refused;
    await h.ok('browser_navigate', { ...s, url: site.url('/pwguard/page') });
    await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 30_000 });
    const text = (await h.ok<{ text: string }>('browser_visible_text', { ...s })).text;
    for (const key of ['fetch', 'worker']) expect(text).toContain(`"${key}":"failed"`);
    expect(text).toContain('"ws":"refused"');
    const afterPage = dialStats(s.sessionId).refused;
    expect(afterPage).toBeGreaterThanOrEqual(before + 3);

    const direct = await h.err('browser_navigate', { ...s, url: `${trap.origin}/direct` });
    expect(direct.code).toBe('NAVIGATION_BLOCKED');
    const redirected = await h.err('browser_navigate', { ...s, url: site.url('/pwguard/redirect') });
    expect(redirected.code).toBe('NAVIGATION_BLOCKED');
    expect(dialStats(s.sessionId).refused).toBeGreaterThan(afterPage);
    expect(guard?.blockedReason(`${trap.origin}/`)).toBeDefined();
    expect(trap.connections()).toBe(0);
    // The session keeps working.
    const ok = await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') });
    expect(ok.status).toBe(200);
  }, 120_000);
});

describe('the playwright provider refuses what it cannot guard or speak to', () => {
  test('a launchServer() endpoint, which ignores the tunnel: tunnel_unsupported', async () => {
    const server = await chromium.launchServer({ executablePath: CHROMIUM, host: '127.0.0.1' });
    const mesh = new BrowserMesh({
      config: testConfig({
        provider: 'playwright',
        playwrightEndpoint: server.wsEndpoint(),
        timeoutMs: 45_000,
      }),
    });
    try {
      await expect(mesh.createSession()).rejects.toMatchObject({
        code: 'BROWSER_ERROR',
        details: { reason: 'tunnel_unsupported' },
      });
    } finally {
      await mesh.shutdown();
      await server.close();
    }
  }, 120_000);

  test('a server of another Playwright version: version_mismatch naming both', async () => {
    const other = await startPlaywrightServer({ versionOverride: '1.64.0' });
    const mesh = new BrowserMesh({
      config: testConfig({ provider: 'playwright', playwrightEndpoint: other.endpoint, timeoutMs: 30_000 }),
    });
    try {
      const error = await mesh.createSession().catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'BROWSER_ERROR',
        details: { reason: 'version_mismatch', serverVersion: '1.64', clientVersion: '1.65.1' },
      });
      expect((error as Error).message).toContain('1.64');
      expect((error as Error).message).toContain('1.65.1');
    } finally {
      await mesh.shutdown();
      await other.stop();
    }
  }, 120_000);

  test('a busy pool, refused credentials and an unreachable server, without the token', async () => {
    const statuses = [429, 401];
    const answering: Server = createServer((_req, res) => {
      res.writeHead(statuses.shift() ?? 500);
      res.end('no');
    });
    await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve));
    const { port } = answering.address() as AddressInfo;
    const provider = new PlaywrightProvider({
      endpoint: `ws://127.0.0.1:${port}/pool?token=tok-secret`,
      headers: { authorization: 'Bearer hdr-secret' },
    });
    try {
      for (const reason of ['pool_busy', 'pool_auth_failed']) {
        const error = await provider.acquire({ timeoutMs: 10_000 }).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: 'BROWSER_ERROR', details: { reason } });
        expect(JSON.stringify(error) + String(error)).not.toMatch(/tok-secret|hdr-secret/);
      }
    } finally {
      await new Promise((resolve) => answering.close(resolve));
    }
    const gone = await provider.acquire({ timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(gone).toMatchObject({ details: { reason: 'pool_unreachable' } });
    expect(String(gone)).not.toContain('tok-secret');
    await provider.shutdown();
  }, 60_000);

  test('a server killed mid-call fails the session clearly', async () => {
    const doomed = await startPlaywrightServer();
    const mesh = new BrowserMesh({
      config: testConfig({ provider: 'playwright', playwrightEndpoint: doomed.endpoint, timeoutMs: 45_000 }),
    });
    try {
      const { session, initialPage } = await mesh.createSession();
      const waiting = mesh
        .runOnPage(session.sessionId, initialPage.pageId, 'wait', async ({ page }) => {
          await page.page.waitForSelector('text=never shown', { timeout: 40_000 });
        })
        .catch((error: unknown) => error);
      doomed.kill();
      expect(await waiting).toBeInstanceOf(Error);
      await vi.waitFor(() => expect(mesh.getSession(session.sessionId).state).toBe('failed'), {
        timeout: 30_000,
      });
    } finally {
      await mesh.shutdown();
      await doomed.stop();
    }
  }, 120_000);
});

describe("the cdp provider's minter gives a hosted browser back", () => {
  test('calls release when the session closes, and when its start fails', async () => {
    const remote = await startRemoteChromium();
    let released = 0;
    const release = (): void => void released++;
    const mesh = new BrowserMesh({
      config: testConfig({ timeoutMs: 30_000 }),
      provider: new PerSessionCdpProvider({ mint: () => ({ endpoint: remote.httpEndpoint, release }) }),
    });
    const refused = new BrowserMesh({
      config: testConfig({ timeoutMs: 10_000 }),
      provider: new PerSessionCdpProvider({ mint: () => ({ endpoint: 'http://127.0.0.1:1', release }) }),
    });
    try {
      const { session } = await mesh.createSession();
      expect(released).toBe(0);
      await mesh.closeSession(session.sessionId);
      expect(released).toBe(1);
      await expect(refused.createSession()).rejects.toMatchObject({
        details: { reason: 'cdp_connect_failed' },
      });
      expect(released).toBe(2);
    } finally {
      await mesh.shutdown();
      await refused.shutdown();
      await stopRemoteChromium(remote);
    }
  }, 120_000);
});
