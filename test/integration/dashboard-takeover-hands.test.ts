/**
 * Take-over beyond clicks (issue 31, "Watch"): a person holding a session scrolls with the wheel,
 * drags (a range input's thumb) and presses navigation keys on the live image of a real dashboard,
 * in a real viewer Chromium, against the fixture site. Bad inputs are refused with 400 and a stable
 * code while the session keeps working; a drag cut short by the hand-back lets the button go.
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
import { connectHttp, ok, rawRequest, startTestHttpServer, type HttpClient } from './support/mcp-http.js';
import { waitFor } from './support/wait.js';

type Created = { session: { sessionId: string }; initialPage: { pageId: string } };

const TOKEN = 'dashboard-hands-token-0123456789';
const AUTH = { Authorization: `Bearer ${TOKEN}` };

/** A tall page (to scroll), a range input at a known place (to drag), a log of keys and mouse buttons. */
const HANDS = `<!doctype html><title>Hands</title>
<style>body{margin:0;height:5000px}</style>
<input id="r" type="range" min="0" max="100" value="0"
  style="position:fixed;left:20px;top:40px;width:400px;height:20px;margin:0;padding:0">
<p id="keys" style="position:fixed;left:20px;top:100px"></p>
<p id="buttons" style="position:fixed;left:20px;top:140px"></p>
<script>
const log = (id, text) => { document.getElementById(id).textContent += text + ' '; };
document.addEventListener('keydown', (e) => log('keys', e.key));
document.addEventListener('mousedown', () => log('buttons', 'down'));
document.addEventListener('mouseup', () => log('buttons', 'up'));
let wheeled = 0;
document.addEventListener('wheel', (e) => { wheeled += e.deltaY; document.body.dataset.wheeled = String(wheeled); });
</script>`;

let mesh: BrowserMesh;
let site: FixtureServer;
let server: RunningHttpServer;
let agent: HttpClient;
let viewer: Browser;
let dashboardUrl: string;

beforeAll(async () => {
  mesh = createBrowserMesh({ config: testConfig(), logger: createLogger('silent') });
  site = await startFixtureServer();
  site.route('/watch/hands', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(HANDS);
  });
  const dashboard = createDashboard({ mesh, logger: createLogger('silent'), takeover: true });
  server = await startTestHttpServer(mesh, { token: TOKEN, dashboard });
  dashboardUrl = server.url.replace(/\/mcp$/, '/dashboard/');
  agent = await connectHttp(server.url, { token: TOKEN });
  viewer = await chromium.launch({ executablePath: CHROMIUM });
});
afterAll(async () => {
  await viewer?.close();
  await agent?.client.close();
  await server?.close();
  await mesh?.shutdown();
  await site?.close();
});

/** A session on the hands page, taken over in a dashboard whose live view shows frames. */
async function takeOver(name: string): Promise<{ sessionId: string; pageId: string; view: Page }> {
  const created = await ok<Created>(agent.client, 'browser_session_create', { name });
  const ids = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
  await ok(agent.client, 'browser_navigate', { ...ids, url: site.url('/watch/hands') });
  const view = await viewer.newPage({ viewport: { width: 1400, height: 1000 } });
  await view.goto(`${dashboardUrl}#token=${TOKEN}`);
  await view.locator(`[data-session-id="${ids.sessionId}"]`).click();
  await view.waitForFunction(
    () => Number(document.querySelector('.live img')?.getAttribute('data-frame-count')) >= 1,
  );
  await view.locator('#takeover').click();
  await view.locator('#handback').waitFor();
  await view.locator('.live.takeover').waitFor();
  return { ...ids, view };
}

/** Where a point of the held page's viewport is on the dashboard's live image. */
async function onImage(view: Page, sessionId: string, pageId: string, x: number, y: number) {
  const box = (await view.locator('.live img').boundingBox())!;
  const vp = mesh.getSession(sessionId).getPage(pageId).page.viewportSize()!;
  return { x: box.x + (x / vp.width) * box.width, y: box.y + (y / vp.height) * box.height };
}

const textOf = (sessionId: string, pageId: string, css: string): Promise<string> =>
  mesh.getSession(sessionId).getPage(pageId).page.locator(css).innerText();

describe('take-over with the wheel, drags and keys', () => {
  it('scrolls, drags a range thumb and presses navigation keys on the live image', async () => {
    const { sessionId, pageId, view } = await takeOver('hands');
    const target = mesh.getSession(sessionId).getPage(pageId).page;

    // Drag: press on the thumb at the left end, move past the right end, let go.
    const from = await onImage(view, sessionId, pageId, 28, 50);
    const to = await onImage(view, sessionId, pageId, 470, 50);
    await view.mouse.move(from.x, from.y);
    await view.mouse.down();
    await view.mouse.move(to.x, to.y, { steps: 8 });
    await view.mouse.up();
    await waitFor(
      async () => Number(await target.locator('#r').inputValue()) === 100,
      15_000,
      'the range thumb dragged to its end',
    );

    // Wheel: turned over the live image, the page gets the wheel turn (scrolling is then the browser's).
    const middle = await onImage(view, sessionId, pageId, 600, 400);
    await view.mouse.move(middle.x, middle.y);
    await view.mouse.wheel(0, 600);
    await waitFor(
      async () => Number(await target.evaluate(() => document.body.dataset.wheeled ?? '0')) > 0,
      15_000,
      'the held page to get the wheel turn downwards',
    );

    // Keys on the focused live view reach the page (its document's keydown log) in order; the buttons
    // send them too.
    await view.locator('.live').focus();
    for (const key of ['ArrowDown', 'PageDown', 'End', 'Home', 'PageUp', 'ArrowUp', 'ArrowLeft'])
      await view.keyboard.press(key);
    await view.locator('button[data-key="End"]').click();
    await waitFor(
      async () =>
        (await textOf(sessionId, pageId, '#keys')) ===
        'ArrowDown PageDown End Home PageUp ArrowUp ArrowLeft End',
      15_000,
      'the keys in order',
    );
    // A key the dashboard does not pass (a letter typed on the live view) stays in the dashboard.
    await view.keyboard.press('q');

    await view.locator('#handback').click();
    await view.locator('#takeover').waitFor();
    expect(await textOf(sessionId, pageId, '#keys')).not.toContain('q');
    await view.close();
    await ok(agent.client, 'browser_session_close', { sessionId });
  });

  it('refuses bad inputs with 400 and a stable code, and the held session keeps working', async () => {
    const { sessionId, pageId, view } = await takeOver('bad-hands');
    const input = (body: Record<string, unknown>) =>
      rawRequest(`${dashboardUrl}api/takeover/input`, {
        headers: AUTH,
        body: JSON.stringify({ sessionId, ...body }),
      });
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ type: 'wheel', x: 10, y: 10, deltaX: 0, deltaY: 'down' }, 'deltaY'],
      [{ type: 'wheel', x: 10, y: 10, deltaX: 1e9, deltaY: 0 }, 'deltaX'],
      [{ type: 'wheel', x: 10, y: 10, deltaX: 0 }, 'deltaY'],
      [{ type: 'down', x: -1, y: 10 }, 'x'],
      [{ type: 'move', x: 10, y: Number.NaN }, 'y'],
      [{ type: 'up', x: 10 }, 'y'],
      [{ type: 'key', key: 'NotAKey' }, 'key'],
      [{ type: 'key', key: 'Control+Control+a' }, 'key'],
      [{ type: 'key', key: 'Hyper+a' }, 'key'],
      [{ type: 'key', key: 'ab' }, 'key'],
      [{ type: 'teleport', x: 1, y: 1 }, 'type'],
    ];
    for (const [body, field] of bad) {
      const res = await input(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = (JSON.parse(res.body) as { error: { code: string; details: { field: string } } }).error;
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details.field).toBe(field);
      expect(res.body).not.toContain('NotAKey');
    }
    // Still held and working: a good key, a wheel turn and a modifier chord go through.
    expect((await input({ type: 'key', key: 'PageDown' })).status).toBe(200);
    expect((await input({ type: 'key', key: 'Shift+Tab' })).status).toBe(200);
    expect((await input({ type: 'wheel', x: 100, y: 100, deltaX: 0, deltaY: 300 })).status).toBe(200);
    await waitFor(
      async () => (await textOf(sessionId, pageId, '#keys')) === 'PageDown Shift Tab',
      15_000,
      'the good keys after the bad ones',
    );

    // A drag cut short by the hand-back: the button goes up before the agent gets the page back.
    expect((await input({ type: 'down', x: 600, y: 400 })).status).toBe(200);
    expect((await input({ type: 'move', x: 620, y: 420 })).status).toBe(200);
    await view.locator('#handback').click();
    const title = await ok<{ title: string }>(agent.client, 'browser_get_title', { sessionId, pageId });
    expect(title.title).toBe('Hands');
    expect(await textOf(sessionId, pageId, '#buttons')).toBe('down up');
    // Released: input is refused again, with its own code.
    const after = await input({ type: 'key', key: 'End' });
    expect(after.status).toBe(400);
    expect(JSON.parse(after.body).error.details.field).toBe('sessionId');
    await view.close();
    await ok(agent.client, 'browser_session_close', { sessionId });
  });
});
