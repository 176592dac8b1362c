/**
 * The dashboard on a session of the playwright provider: a real `playwright run-server` on 127.0.0.1
 * launches the session's browser, the stdio user's dashboard (its own loopback port) lists it, a
 * viewer Chromium opens its live view and sees the page's frames (screencast over the remote
 * connection's CDP session), and a person takes it over while the agent's call waits.
 */
import type { Config } from '../../src/config/config-types.js';
import { describe, expect, openDashboard, test as fixtureTest, waitForFrames } from './support/dashboard.js';
import { startPlaywrightServer, type PlaywrightServer } from './support/playwright-server.js';
import { expectTakeover } from './support/takeover.js';

const PAGE = `<!doctype html><title>Remote tile</title><h1 style="font-size:80px">remote</h1>
<script>let i = 0; setInterval(() => { document.body.style.background = ++i % 2 ? '#fde' : '#def'; }, 200);</script>`;

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('pwServer', { scope: 'file' }, async ({}, { onCleanup }): Promise<PlaywrightServer> => {
    const server = await startPlaywrightServer();
    onCleanup(() => server.stop());
    return server;
  })
  .extend('harnessConfig', { scope: 'file' }, ({ pwServer }): Partial<Config> => ({
    provider: 'playwright',
    playwrightEndpoint: pwServer.endpoint,
    tools: ['core', 'watch'],
    timeoutMs: 45_000,
  }))
  .extend('dashboardSetup', { scope: 'file' }, () => ({ token: '', takeover: true }));

describe('the dashboard on a playwright-provider session', () => {
  test('opens the live view of the remote session and shows its frames; a person takes over', async ({
    harness: h,
    site,
    ownDashboard,
    viewer,
    pwServer,
  }) => {
    site.route('/pwwatch/tile', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(PAGE);
    });
    const s = await h.session({ name: 'remote-pw' });
    await h.ok('browser_navigate', { ...s, url: site.url('/pwwatch/tile') });

    const state = (await (await fetch(`${ownDashboard.url}api/state`)).json()) as {
      sessions: Array<{ sessionId: string; provider: string; pages: Array<{ url: string }> }>;
    };
    expect(state.sessions.find((x) => x.sessionId === s.sessionId)).toMatchObject({
      provider: 'playwright',
      pages: [{ url: site.url('/pwwatch/tile') }],
    });

    const page = await openDashboard(viewer, ownDashboard.url, '');
    await page.locator(`[data-session-id="${s.sessionId}"]`).click();
    // Several frames: the stream keeps coming from the remote browser, not one still.
    await waitForFrames(page, 3);
    const shown = await page
      .locator('.live img')
      .evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, src: img.src.slice(0, 5) }));
    expect(shown.width).toBeGreaterThan(0);
    expect(['data:', 'blob:']).toContain(shown.src);
    await page.close();

    // Take-over: the person's input reaches the remote page while the agent's call waits.
    await expectTakeover(ownDashboard.url, h, s, site);
    expect(h.mesh.getSession(s.sessionId).toInfo().placement).toEqual({
      provider: 'playwright',
      node: new URL(pwServer.endpoint).origin,
    });
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  }, 180_000);
});
