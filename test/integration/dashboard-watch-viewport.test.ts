/**
 * Watching never changes the page: the dashboard's thumbnails and live frames scale the image, never
 * the page's viewport. Reported: after a person watched session A live and then clicked session B,
 * A's page reported innerWidth × innerHeight = 320 × 180 (the thumbnail's width) and stayed so.
 * The cause: a still taken with `Page.captureScreenshot { clip: { scale } }` sets a device emulation
 * for its duration and then restores what its own CDP session knew; two such stills of one page at
 * once (a card's thumbnail and the live view's first frame, on two CDP sessions) left the page at
 * the scaled size. The real flow first: a viewer Chromium opens the dashboard, watches A (its
 * thumbnail request is held until the live view starts, so both stills meet), switches to B, closes
 * the tab; both pages' `innerWidth`/`innerHeight` and a media query are read before, during, after.
 */
import type { Page, Route } from 'playwright-core';
import { LiveFrames } from '../../src/dashboard/live-frames.js';
import { Thumbnails } from '../../src/dashboard/thumbnails.js';
import {
  createSession,
  describe,
  expect,
  openDashboard,
  test as fixtureTest,
  waitForFrames,
  type SessionIds,
} from './support/dashboard.js';
import { waitFor } from './support/wait.js';

const TOKEN = 'dashboard-watch-token-0123456789';
const test = fixtureTest.extend('dashboardSetup', { scope: 'file' }, () => ({
  token: TOKEN,
  takeover: true,
}));

const SIZED = `<!doctype html><title>Sized</title><h1>still</h1>`;

interface Seen {
  width: number;
  height: number;
  wide: boolean;
}
const EXPECTED: Seen = { width: 1280, height: 720, wide: true };

const seenBy = (page: Page): Promise<Seen> =>
  page.evaluate(() => ({
    width: window.innerWidth,
    height: window.innerHeight,
    wide: window.matchMedia('(min-width: 1000px)').matches,
  }));

describe('watching on the dashboard', () => {
  test.beforeAll(({ site }) => {
    site.route('/viewport/sized', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(SIZED);
    });
  });

  test('never changes the page’s viewport: watch A, switch to B, close the dashboard', async ({
    agent,
    mesh,
    site,
    viewer,
    dashboardUrl,
  }) => {
    const a = await createSession(agent, { name: 'watch-a' }, site.url('/viewport/sized'));
    const b = await createSession(agent, { name: 'watch-b' }, site.url('/viewport/sized'));
    const pageOf = (s: SessionIds): Page => mesh.getSession(s.sessionId).getPage(s.pageId).page;
    const both = async (when: string): Promise<void> => {
      expect({ when, a: await seenBy(pageOf(a)) }).toEqual({ when, a: EXPECTED });
      expect({ when, b: await seenBy(pageOf(b)) }).toEqual({ when, b: EXPECTED });
    };
    await both('before');

    const dashboard = await openDashboard(viewer, dashboardUrl, TOKEN);
    await dashboard.locator(`[data-session-id="${b.sessionId}"]`).waitFor();
    for (const watched of [a, b, a]) {
      // The watched card's next thumbnail request waits for its live view to start: both stills of
      // that page are taken at once, as when a person clicks a card whose still is due.
      let releaseThumb!: () => void;
      const thumbHeld = new Promise<void>((resolve) => (releaseThumb = resolve));
      let sawThumb = false;
      const hold = async (route: Route): Promise<void> => {
        if (!route.request().url().includes(watched.sessionId)) return route.continue();
        sawThumb = true;
        await thumbHeld;
        await route.continue().catch(() => undefined);
      };
      await dashboard.route('**/api/thumbnail?*', hold);
      await waitFor(async () => sawThumb, 20_000, 'the watched card’s thumbnail request');
      const framesStarted = dashboard.waitForRequest((req) => req.url().includes('/api/frames?'));
      await dashboard.locator(`[data-session-id="${watched.sessionId}"]`).click();
      await framesStarted;
      releaseThumb();
      await waitForFrames(dashboard, 1);
      await dashboard.unroute('**/api/thumbnail?*', hold);
      await both(`watching ${watched === a ? 'A' : 'B'}`);
    }
    await dashboard.close();
    await waitFor(async () => mesh.listSessions().length >= 2, 5_000, 'sessions still listed');
    await both('after');
  });

  test('stills and live starts of one page at once leave its viewport alone', async ({
    agent,
    mesh,
    site,
  }) => {
    const s = await createSession(agent, { name: 'race' }, site.url('/viewport/sized'));
    const page = mesh.getSession(s.sessionId).getPage(s.pageId);
    const frames = new LiveFrames({ minFrameIntervalMs: 200, maxWidth: 960, maxHeight: 720, quality: 60 });
    for (let round = 0; round < 10; round++) {
      let first!: () => void;
      const delivered = new Promise<void>((resolve) => (first = resolve));
      const stop = frames.watch(page, () => first());
      try {
        await Promise.all([new Thumbnails().of(page), new Thumbnails().of(page), delivered]);
      } finally {
        stop();
      }
      await new Thumbnails().of(page);
      expect({ round, seen: await seenBy(page.page) }).toEqual({ round, seen: EXPECTED });
    }
  });
});
