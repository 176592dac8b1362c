/**
 * browser_scroll with a ref inside a grid scrolls the nearest container that actually
 * scrolls in that direction (not a sideways-only scroller, not the page), a ref on the grid's host
 * scrolls the scroller inside it, and the result names the container that moved.
 */
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';
import { refOf } from './support/refs.js';
import { testAgentBrowser, ToolDriver } from './support/agent.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

interface Scrolled {
  scrollX: number;
  scrollY: number;
  container: string;
  scroller?: string;
}

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

describe('MCP browser_scroll inside a grid', () => {
  test('scrolls the vertical scroller for a cell, the sideways one for deltaX, never the page', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/grid') });
    const cell = { locator: { role: 'gridcell', name: 'Person 3' } };
    const down = await h.ok<Scrolled>('browser_scroll', { ...s, ...cell, deltaY: 300 });
    expect(down).toMatchObject({ container: 'element', scrollY: 300, scroller: 'div#body-viewport' });
    const right = await h.ok<Scrolled>('browser_scroll', { ...s, ...cell, deltaX: 150 });
    expect(right).toMatchObject({ container: 'element', scrollX: 150, scroller: 'div#center-viewport' });
    const page = await h.ok<Scrolled>('browser_scroll', { ...s, deltaY: 0 });
    expect(page).toMatchObject({ container: 'page', scrollY: 0 });
  });

  test("scrolls the scroller inside the grid's host when the ref is the grid itself", async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/grid') });
    const { snapshot } = await h.ok<{ snapshot: string }>('browser_snapshot', { ...s, maxDepth: 3 });
    const ref = refOf(snapshot, /\[grid (@e\d+)[^\]]*\] People/);
    const down = await h.ok<Scrolled>('browser_scroll', { ...s, ref, deltaY: 200 });
    expect(down).toMatchObject({ container: 'element', scrollY: 200, scroller: 'div#body-viewport' });
  });
});

describe('AgentBrowser', () => {
  let browser: AgentBrowser;
  test.afterAll(async () => {
    await browser?.close();
  });

  test('browser_scroll down by the grid ref moves the grid body, and says so', async () => {
    browser = testAgentBrowser();
    const t = new ToolDriver(browser, { threadId: 'grid' });
    await t.ok('browser_goto', { url: site.url('/widgets/grid') });
    const { snapshot } = await t.ok<{ snapshot: string }>('browser_snapshot', { maxDepth: 3 });
    const moved = await t.ok<Scrolled>('browser_scroll', {
      ref: refOf(snapshot, /\[grid (@e\d+)[^\]]*\] People/),
      direction: 'down',
      amount: 120,
    });
    expect(moved).toMatchObject({ container: 'element', scrollY: 120, scroller: 'div#body-viewport' });
  });
});
