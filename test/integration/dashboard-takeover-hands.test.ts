/**
 * Take-over beyond clicks: a person holding a session scrolls with the wheel,
 * drags (a range input's thumb) and presses navigation keys on the live image of a real dashboard,
 * in a real viewer Chromium, against the fixture site. Bad inputs are refused with 400 and a stable
 * code while the session keeps working; a drag cut short by the hand-back lets the button go.
 */
import type { Browser, Page } from 'playwright-core';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import {
  createSession,
  describe,
  expect,
  openDashboard,
  test as fixtureTest,
  waitForFrames,
} from './support/dashboard.js';
import { ok, rawRequest, type HttpClient } from './support/mcp-http.js';
import { waitFor } from './support/wait.js';

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

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('dashboardSetup', { scope: 'file' }, () => ({
  token: TOKEN,
  takeover: true,
}));

test.beforeAll(({ site }) => {
  site.route('/watch/hands', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(HANDS);
  });
});

interface Hands {
  agent: HttpClient;
  site: FixtureServer;
  viewer: Browser;
  dashboardUrl: string;
}

/** A session on the hands page, taken over in a dashboard whose live view shows frames. */
async function takeOver(
  { agent, site, viewer, dashboardUrl }: Hands,
  name: string,
): Promise<{ sessionId: string; pageId: string; view: Page }> {
  const ids = await createSession(agent, { name }, site.url('/watch/hands'));
  const view = await openDashboard(viewer, dashboardUrl, TOKEN, { width: 1400, height: 1000 });
  await view.locator(`[data-session-id="${ids.sessionId}"]`).click();
  await waitForFrames(view, 1);
  await view.locator('#takeover').click();
  await view.locator('#handback').waitFor();
  await view.locator('.live.takeover').waitFor();
  return { ...ids, view };
}

/** Where a point of the held page's viewport is on the dashboard's live image. */
async function onImage(
  mesh: BrowserMesh,
  view: Page,
  sessionId: string,
  pageId: string,
  x: number,
  y: number,
) {
  const box = (await view.locator('.live img').boundingBox())!;
  const vp = mesh.getSession(sessionId).getPage(pageId).page.viewportSize()!;
  return { x: box.x + (x / vp.width) * box.width, y: box.y + (y / vp.height) * box.height };
}

const textOf = (mesh: BrowserMesh, sessionId: string, pageId: string, css: string): Promise<string> =>
  mesh.getSession(sessionId).getPage(pageId).page.locator(css).innerText();

describe('take-over with the wheel, drags and keys', () => {
  test('scrolls, drags a range thumb and presses navigation keys on the live image', async ({
    agent,
    site,
    viewer,
    dashboardUrl,
    mesh,
  }) => {
    const { sessionId, pageId, view } = await takeOver({ agent, site, viewer, dashboardUrl }, 'hands');
    const target = mesh.getSession(sessionId).getPage(pageId).page;

    // Drag: press on the thumb at the left end, move past the right end, let go.
    const from = await onImage(mesh, view, sessionId, pageId, 28, 50);
    const to = await onImage(mesh, view, sessionId, pageId, 470, 50);
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
    const middle = await onImage(mesh, view, sessionId, pageId, 600, 400);
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
        (await textOf(mesh, sessionId, pageId, '#keys')) ===
        'ArrowDown PageDown End Home PageUp ArrowUp ArrowLeft End',
      15_000,
      'the keys in order',
    );
    // A key the dashboard does not pass (a letter typed on the live view) stays in the dashboard.
    await view.keyboard.press('q');

    await view.locator('#handback').click();
    await view.locator('#takeover').waitFor();
    expect(await textOf(mesh, sessionId, pageId, '#keys')).not.toContain('q');
    await view.close();
    await ok(agent.client, 'browser_session_close', { sessionId });
  });

  test('refuses bad inputs with 400 and a stable code, and the held session keeps working', async ({
    agent,
    site,
    viewer,
    dashboardUrl,
    mesh,
  }) => {
    const { sessionId, pageId, view } = await takeOver({ agent, site, viewer, dashboardUrl }, 'bad-hands');
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
      async () => (await textOf(mesh, sessionId, pageId, '#keys')) === 'PageDown Shift Tab',
      15_000,
      'the good keys after the bad ones',
    );

    // A drag cut short by the hand-back: the button goes up before the agent gets the page back.
    expect((await input({ type: 'down', x: 600, y: 400 })).status).toBe(200);
    expect((await input({ type: 'move', x: 620, y: 420 })).status).toBe(200);
    await view.locator('#handback').click();
    const title = await ok<{ title: string }>(agent.client, 'browser_get_title', { sessionId, pageId });
    expect(title.title).toBe('Hands');
    expect(await textOf(mesh, sessionId, pageId, '#buttons')).toBe('down up');
    // Released: input is refused again, with its own code.
    const after = await input({ type: 'key', key: 'End' });
    expect(after.status).toBe(400);
    expect(JSON.parse(after.body).error.details.field).toBe('sessionId');
    await view.close();
    await ok(agent.client, 'browser_session_close', { sessionId });
  });
});
