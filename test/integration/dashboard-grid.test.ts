/**
 * The dashboard as a grid of live sessions, for watching many at once: on a wide window the session cards
 * sit side by side, each with its page's still; watching one puts it beside the grid; on a narrow
 * window the grid is one column, nothing overflows sideways, and a card still opens its live view.
 * A real viewer Chromium on a real dashboard, sessions on the fixture site.
 */
import type { Browser, Page } from 'playwright-core';
import {
  createSession,
  describe,
  expect,
  openDashboard,
  test as fixtureTest,
  waitForFrames,
} from './support/dashboard.js';

const TOKEN = 'dashboard-grid-token-0123456789';
const PAGE = `<!doctype html><title>Grid page</title><h1 style="font-size:80px">tile</h1>`;
// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('dashboardSetup', { scope: 'file' }, () => ({
  token: TOKEN,
  takeover: false,
}));

const sessionIds: string[] = [];

test.beforeAll(async ({ site, agent }) => {
  site.route('/watch/tile', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(PAGE);
  });
  for (const name of ['grid-a', 'grid-b', 'grid-c', 'grid-d']) {
    const ids = await createSession(agent, { name }, site.url('/watch/tile'));
    sessionIds.push(ids.sessionId);
  }
});

async function open(viewer: Browser, dashboardUrl: string, width: number, height: number): Promise<Page> {
  const page = await openDashboard(viewer, dashboardUrl, TOKEN, { width, height });
  for (const id of sessionIds) await page.locator(`[data-session-id="${id}"]`).waitFor();
  return page;
}

/** Every card's still has loaded (thumbnails come a few seconds apart, so poll). */
async function allStillsShown(page: Page): Promise<void> {
  await page.waitForFunction(
    (ids) =>
      ids.every(
        (id) =>
          (document.querySelector(`[data-session-id="${id}"] img.thumb`) as HTMLImageElement | null)
            ?.naturalWidth,
      ),
    sessionIds,
    { timeout: 60_000 },
  );
}

const tops = (page: Page): Promise<number[]> =>
  page.evaluate(
    (ids) =>
      ids.map((id) => document.querySelector(`[data-session-id="${id}"]`)!.getBoundingClientRect().top),
    sessionIds,
  );

const fitsSideways = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('a grid of live sessions', () => {
  test('lays the cards out side by side with their stills on a wide window, the watched one beside them', async ({
    viewer,
    dashboardUrl,
  }) => {
    const page = await open(viewer, dashboardUrl, 1400, 900);
    expect(await page.locator('#sessions').evaluate((node) => getComputedStyle(node).display)).toBe('grid');
    // All four cards in one row across the window.
    expect(new Set(await tops(page)).size).toBe(1);
    await allStillsShown(page);
    expect(await fitsSideways(page)).toBe(true);

    await page.locator(`[data-session-id="${sessionIds[1]}"]`).click();
    await waitForFrames(page, 1);
    // Watching: the grid on the left (still more than one card a row), the live view on its right.
    const grid = (await page.locator('#sessions').boundingBox())!;
    const detail = (await page.locator('#detail').boundingBox())!;
    expect(detail.x).toBeGreaterThanOrEqual(grid.x + grid.width);
    expect(new Set(await tops(page)).size).toBeLessThan(sessionIds.length);
    expect(await fitsSideways(page)).toBe(true);
    await page.close();
  });

  test('stays usable on a narrow window: one column, nothing wider than the window, a card opens its view', async ({
    viewer,
    dashboardUrl,
  }) => {
    const page = await open(viewer, dashboardUrl, 380, 800);
    const shown = await tops(page);
    expect(new Set(shown).size).toBe(sessionIds.length);
    await allStillsShown(page);
    expect(await fitsSideways(page)).toBe(true);

    await page.locator(`[data-session-id="${sessionIds[2]}"]`).click();
    await waitForFrames(page, 1);
    const live = (await page.locator('.live img').boundingBox())!;
    expect(live.x).toBeGreaterThanOrEqual(0);
    expect(live.x + live.width).toBeLessThanOrEqual(380);
    // The operations and events tables (long URLs among them) wrap instead of widening the page.
    await page.locator('#operations tr[data-tool="browser_navigate"]').waitFor();
    expect(await fitsSideways(page)).toBe(true);
    await page.close();
  });
});
