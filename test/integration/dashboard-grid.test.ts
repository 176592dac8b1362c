/**
 * The dashboard as a grid of live sessions (issue 31, "Watch"): on a wide window the session cards
 * sit side by side, each with its page's still; watching one puts it beside the grid; on a narrow
 * window the grid is one column, nothing overflows sideways, and a card still opens its live view.
 * A real viewer Chromium on a real dashboard, sessions on the fixture site.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserMesh } from '../../src/create-mesh.js';
import { createDashboard } from '../../src/dashboard/handler.js';
import { createLogger } from '../../src/engine/logger.js';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import type { RunningHttpServer } from '../../src/mcp/http.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { CHROMIUM, testConfig } from '../helpers/harness.js';
import { connectHttp, ok, startTestHttpServer, type HttpClient } from './support/mcp-http.js';

type Created = { session: { sessionId: string }; initialPage: { pageId: string } };

const TOKEN = 'dashboard-grid-token-0123456789';
const PAGE = `<!doctype html><title>Grid page</title><h1 style="font-size:80px">tile</h1>`;

let mesh: BrowserMesh;
let site: FixtureServer;
let server: RunningHttpServer;
let agent: HttpClient;
let viewer: Browser;
let dashboardUrl: string;
const sessionIds: string[] = [];

beforeAll(async () => {
  mesh = createBrowserMesh({ config: testConfig(), logger: createLogger('silent') });
  site = await startFixtureServer();
  site.route('/watch/tile', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(PAGE);
  });
  const dashboard = createDashboard({ mesh, logger: createLogger('silent'), takeover: false });
  server = await startTestHttpServer(mesh, { token: TOKEN, dashboard });
  dashboardUrl = server.url.replace(/\/mcp$/, '/dashboard/');
  agent = await connectHttp(server.url, { token: TOKEN });
  viewer = await chromium.launch({ executablePath: CHROMIUM });
  for (const name of ['grid-a', 'grid-b', 'grid-c', 'grid-d']) {
    const created = await ok<Created>(agent.client, 'browser_session_create', { name });
    const ids = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
    await ok(agent.client, 'browser_navigate', { ...ids, url: site.url('/watch/tile') });
    sessionIds.push(ids.sessionId);
  }
});
afterAll(async () => {
  await viewer?.close();
  await agent?.client.close();
  await server?.close();
  await mesh?.shutdown();
  await site?.close();
});

async function open(width: number, height: number): Promise<Page> {
  const page = await viewer.newPage({ viewport: { width, height } });
  await page.goto(`${dashboardUrl}#token=${TOKEN}`);
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
  it('lays the cards out side by side with their stills on a wide window, the watched one beside them', async () => {
    const page = await open(1400, 900);
    expect(await page.locator('#sessions').evaluate((node) => getComputedStyle(node).display)).toBe('grid');
    // All four cards in one row across the window.
    expect(new Set(await tops(page)).size).toBe(1);
    await allStillsShown(page);
    expect(await fitsSideways(page)).toBe(true);

    await page.locator(`[data-session-id="${sessionIds[1]}"]`).click();
    await page.waitForFunction(
      () => Number(document.querySelector('.live img')?.getAttribute('data-frame-count')) >= 1,
    );
    // Watching: the grid on the left (still more than one card a row), the live view on its right.
    const grid = (await page.locator('#sessions').boundingBox())!;
    const detail = (await page.locator('#detail').boundingBox())!;
    expect(detail.x).toBeGreaterThanOrEqual(grid.x + grid.width);
    expect(new Set(await tops(page)).size).toBeLessThan(sessionIds.length);
    expect(await fitsSideways(page)).toBe(true);
    await page.close();
  });

  it('stays usable on a narrow window: one column, nothing wider than the window, a card opens its view', async () => {
    const page = await open(380, 800);
    const shown = await tops(page);
    expect(new Set(shown).size).toBe(sessionIds.length);
    await allStillsShown(page);
    expect(await fitsSideways(page)).toBe(true);

    await page.locator(`[data-session-id="${sessionIds[2]}"]`).click();
    await page.waitForFunction(
      () => Number(document.querySelector('.live img')?.getAttribute('data-frame-count')) >= 1,
    );
    const live = (await page.locator('.live img').boundingBox())!;
    expect(live.x).toBeGreaterThanOrEqual(0);
    expect(live.x + live.width).toBeLessThanOrEqual(380);
    // The operations and events tables (long URLs among them) wrap instead of widening the page.
    await page.locator('#operations tr[data-tool="browser_navigate"]').waitFor();
    expect(await fitsSideways(page)).toBe(true);
    await page.close();
  });
});
