/**
 * The cdp provider against a second Chromium this test starts with --remote-debugging-port on
 * 127.0.0.1: isolated sessions on it, placement without credentials, and a shutdown that only
 * disconnects — BrowserMesh never kills a process it did not start.
 */
import { describe, expect, test } from './support/fixtures.js';
import { defaultConfig } from '../../src/config/load.js';
import { safeEndpoint } from '../../src/engine/providers/cdp.js';
import { PerSessionCdpProvider } from '../../src/engine/providers/cdp-per-session.js';
import { createProvider } from '../../src/engine/providers/index.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { startRemoteChromium, stopRemoteChromium, type RemoteChromium } from './support/remote-chromium.js';

describe('cdp provider (a remote-debugging Chromium on 127.0.0.1)', () => {
  let remote: RemoteChromium;
  let site: FixtureServer;

  // The site comes from the shared fixtures; the remote Chromium is this describe's own.
  test.beforeAll(async ({ site: fileSite }) => {
    site = fileSite;
    remote = await startRemoteChromium();
  }, 60_000);

  test.afterAll(async () => {
    if (remote) await stopRemoteChromium(remote);
  });

  test('runs isolated sessions on the remote browser and leaves it running on shutdown', async () => {
    const config = defaultConfig({ provider: 'cdp', cdpEndpoint: remote.httpEndpoint, timeoutMs: 30_000 });
    const mesh = new BrowserMesh({ config });
    const [a, b] = await Promise.all([mesh.createSession({ name: 'a' }), mesh.createSession({ name: 'b' })]);
    expect(a.session.placement).toEqual({ provider: 'cdp', node: remote.httpEndpoint });
    expect(mesh.runtimeInfo().browser).toMatchObject({
      provider: 'cdp',
      state: 'ready',
      endpoint: remote.httpEndpoint,
    });

    // A cookie set in one session is invisible in the other: each has its own context.
    const cookieOf = (sessionId: string, pageId: string, set?: string): Promise<string> =>
      mesh.runOnPage(sessionId, pageId, 'cookie', async ({ page }) => {
        await page.page.goto(site.url('/shop/'));
        if (set) await page.page.evaluate((value) => (document.cookie = value), set);
        return page.page.evaluate(() => document.cookie);
      });
    expect(await cookieOf(a.session.sessionId, a.initialPage.pageId, 'who=a')).toContain('who=a');
    expect(await cookieOf(b.session.sessionId, b.initialPage.pageId)).not.toContain('who=a');

    await mesh.shutdown();
    expect(mesh.getSession(a.session.sessionId).state).toBe('closed');
    expect(remote.process.exitCode).toBeNull();
    expect(remote.process.signalCode).toBeNull();
    const version = await fetch(`${remote.httpEndpoint}/json/version`);
    expect(version.ok).toBe(true);
  });

  test('mints one endpoint and one connection per session from a function or a {session} template', async () => {
    const minted: string[] = [];
    const provider = new PerSessionCdpProvider({
      mint: async () => {
        minted.push(remote.httpEndpoint);
        return remote.httpEndpoint;
      },
    });
    const mesh = new BrowserMesh({ config: defaultConfig({ timeoutMs: 30_000 }), provider });
    const a = await mesh.createSession({ name: 'a' });
    const b = await mesh.createSession({ name: 'b' });
    expect(minted).toHaveLength(2);
    expect(mesh.getSession(a.session.sessionId).browserLease?.browser).not.toBe(
      mesh.getSession(b.session.sessionId).browserLease?.browser,
    );
    await mesh.closeSession(a.session.sessionId);
    // Closing one session only dropped its own connection.
    expect(
      await mesh.runOnPage(b.session.sessionId, b.initialPage.pageId, 'title', async ({ page }) =>
        page.page.title(),
      ),
    ).toBe('');
    await mesh.shutdown();
    expect(remote.process.exitCode).toBeNull();

    const templated = createProvider(
      defaultConfig({ provider: 'cdp', cdpEndpoint: `${remote.httpEndpoint}/?slot={session}` }),
    );
    expect(templated).toBeInstanceOf(PerSessionCdpProvider);
    const viaTemplate = new BrowserMesh({
      config: defaultConfig({ timeoutMs: 30_000 }),
      provider: templated,
    });
    const c = await viaTemplate.createSession();
    expect(c.session.placement).toEqual({ provider: 'cdp', node: remote.httpEndpoint });
    await viaTemplate.shutdown();

    const broken = new BrowserMesh({
      config: defaultConfig(),
      provider: new PerSessionCdpProvider({ mint: () => 'not a url' }),
    });
    await expect(broken.createSession()).rejects.toMatchObject({
      code: 'BROWSER_ERROR',
      details: { reason: 'cdp_mint_invalid' },
    });
    await broken.shutdown();
  });

  test('shows only scheme, host and port of an endpoint', () => {
    expect(safeEndpoint('wss://user:secret@cdp.example:9222/devtools/browser/x?token=abc')).toBe(
      'wss://cdp.example:9222',
    );
    expect(safeEndpoint('not a url')).toBe('(invalid endpoint)');
  });
});
