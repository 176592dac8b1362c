import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'pointer', 'code'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const open = (): Promise<unknown> => h.ok('browser_navigate', { ...s, url: site.url('/files/pointer') });
const mouse = (args: Record<string, unknown>) =>
  h.ok<{ hit: string | null }>('browser_mouse', { ...s, ...args });

/** The board's event log, read once it has at least `lines` lines (event-driven wait). */
async function log(lines: number): Promise<string[]> {
  return h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', async ({ page }) => {
    await page.page.waitForFunction(
      (n) =>
        (document.getElementById('log')?.textContent ?? '').trim().split('\n').filter(Boolean).length >= n,
      lines,
      { timeout: 5000 },
    );
    return ((await page.page.textContent('#log')) ?? '').trim().split('\n');
  });
}

describe('browser_mouse', () => {
  test('clicks at coordinates with button, count and modifiers, and says what it hit', async () => {
    await open();
    expect(await mouse({ action: 'click', x: 50, y: 60 })).toMatchObject({
      completed: true,
      hit: 'canvas#board',
    });
    await mouse({ action: 'click', x: 70, y: 80, button: 'right', modifiers: ['Shift'] });
    await mouse({ action: 'click', x: 10, y: 20, clickCount: 2 });
    const lines = await log(9);
    expect(lines.slice(0, 3)).toEqual(['mousedown 50,60 0 1', 'mouseup 50,60 0 1', 'click 50,60 0 1']);
    expect(lines).toContain('mousedown 70,80 2 1 shift');
    expect(lines.some((line) => /^contextmenu 70,80 2 \d shift$/.test(line))).toBe(true);
    expect(lines).toContain('dblclick 10,20 0 2');
    const outside = await mouse({ action: 'click', x: 30, y: 700 });
    expect(outside.hit).not.toBe('canvas#board');
  });

  test('drags from a point to a point with the button held, and moves', async () => {
    await open();
    const result = await mouse({ action: 'drag', x: 20, y: 20, toX: 200, toY: 150, steps: 5 });
    expect(result.hit).toBe('canvas#board');
    const lines = await log(2);
    expect(lines[0]).toBe('mousedown 20,20 0 1');
    expect(lines[1]).toBe('mouseup 200,150 0 1');
    await mouse({ action: 'down', x: 5, y: 5 });
    await mouse({ action: 'move', x: 40, y: 45, steps: 3 });
    const moves = await h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', ({ page }) =>
      page.page.textContent('#moves'),
    );
    expect(moves).toContain('last 40,45 buttons 1');
    await mouse({ action: 'up' });
    expect((await log(6)).slice(3)).toEqual(['mousedown 5,5 0 1', 'mouseup 40,45 0 1', 'click 40,45 0 1']);
  });

  test('wheels the page', async () => {
    await open();
    await mouse({ action: 'wheel', x: 100, y: 100, deltaY: 300 });
    expect(await log(1)).toContain('wheel 0,300');
  });

  test('refuses points outside the viewport and missing coordinates, by field', async () => {
    await open();
    expect(await h.err('browser_mouse', { ...s, action: 'click', x: 5000, y: 10 })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'x' },
    });
    expect(await h.err('browser_mouse', { ...s, action: 'drag', x: 1, y: 1, toX: 2 })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'toY' },
    });
    expect(await h.err('browser_mouse', { ...s, action: 'click', x: -1, y: 1 })).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await h.err('browser_mouse', { ...s, action: 'wheel' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    // The session still works.
    expect((await mouse({ action: 'move', x: 1, y: 1 })).hit).toBe('canvas#board');
  });
});

describe('browser_set_viewport', () => {
  test("resizes an open page and the session's later pages", async () => {
    await open();
    expect(await h.ok('browser_set_viewport', { ...s, width: 500, height: 400 })).toMatchObject({
      width: 500,
      height: 400,
    });
    await h.ok('browser_wait', { ...s, text: '500x400', timeoutMs: 5000 });
    const later = await h.ok<{ page: { pageId: string } }>('browser_page_create', { sessionId: s.sessionId });
    const pageId = later.page.pageId;
    await h.ok('browser_navigate', { sessionId: s.sessionId, pageId, url: site.url('/files/pointer') });
    await h.ok('browser_wait', { sessionId: s.sessionId, pageId, text: '500x400', timeoutMs: 5000 });
    // A point beyond the new width is now outside the viewport.
    expect(await h.err('browser_mouse', { ...s, action: 'click', x: 600, y: 10 })).toMatchObject({
      details: { field: 'x' },
    });
  });

  test('refuses sizes out of range', async () => {
    expect(await h.err('browser_set_viewport', { ...s, width: 10, height: 400 })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'width' },
    });
    expect(await h.err('browser_set_viewport', { ...s, width: 500.5, height: 400 })).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
