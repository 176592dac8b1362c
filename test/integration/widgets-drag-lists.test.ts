/**
 * Dragging between two sortable lists moves in steps, enters the target and settles on the
 * side the agent names (position before / after, or a point inside the target), for a list driven by
 * pointer events and one driven by HTML5 drag events; on every face (MCP, AgentBrowser, code mode's
 * locator.dragTo).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';
import { testAgentBrowser, ToolDriver } from './support/agent.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const byId = (id: string): { locator: { css: string } } => ({ locator: { css: `#${id}` } });

async function dragOrder(mode: string, position: unknown, target = 'b1'): Promise<string> {
  await h.ok('browser_navigate', { ...s, url: site.url(`/widgets/lists?mode=${mode}`) });
  await h.ok('browser_drag_and_drop', { ...s, source: byId('a2'), target: byId(target), position });
  const { text } = await h.ok<{ text: string }>('browser_visible_text', s);
  return /order: (.*)/.exec(text)?.[1] ?? text;
}

describe.each(['pointer', 'html5'])('MCP, %s-driven lists', (mode) => {
  test('drops before the target item', async () => {
    expect(await dragOrder(mode, 'before')).toBe('a1,a3 | a2,b1,b2,b3');
  });
  test('drops after the target item', async () => {
    expect(await dragOrder(mode, 'after')).toBe('a1,a3 | b1,a2,b2,b3');
  });
  test('drops at a point inside the target (its top edge: before)', async () => {
    expect(await dragOrder(mode, { x: 20, y: 4 }, 'b3')).toBe('a1,a3 | b1,b2,a2,b3');
  });
  test('drops after the last item of the other list', async () => {
    expect(await dragOrder(mode, 'after', 'b3')).toBe('a1,a3 | b1,b2,b3,a2');
  });
});

describe('bad positions', () => {
  test('are refused with INVALID_ARGUMENT and the session keeps working', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/lists?mode=pointer') });
    for (const position of ['middle', { x: -1, y: 2 }, { x: 1 }]) {
      const error = await h.err('browser_drag_and_drop', {
        ...s,
        source: byId('a1'),
        target: byId('b1'),
        position,
      });
      expect(error.code).toBe('INVALID_ARGUMENT');
    }
    const outside = await h.err('browser_drag_and_drop', {
      ...s,
      source: byId('a1'),
      target: byId('b1'),
      position: { x: 5000, y: 1 },
    });
    expect(outside.code).toBe('INVALID_ARGUMENT');
    expect(outside.details?.field).toBe('position');
    expect(await dragOrder('pointer', 'before')).toBe('a1,a3 | a2,b1,b2,b3');
  });
});

describe('AgentBrowser and code mode', () => {
  let browser: AgentBrowser;
  test.afterAll(async () => {
    await browser?.close();
  });

  test('AgentBrowser browser_drag settles after the target by ref', async () => {
    browser = testAgentBrowser();
    const t = new ToolDriver(browser, { threadId: 'lists' });
    await t.ok('browser_goto', { url: site.url('/widgets/lists?mode=pointer') });
    const { snapshot } = await t.ok<{ snapshot: string }>('browser_snapshot');
    const ref = (name: string): string => {
      const found = new RegExp(`(@e\\d+)[^\\]]*\\] ${name}\\b`).exec(snapshot)?.[1];
      if (!found) throw new Error(`no ref for ${name} in ${snapshot}`);
      return found;
    };
    await t.ok('browser_drag', { sourceRef: ref('A2'), targetRef: ref('B1'), position: 'after' });
    expect(await t.text('status')).toBe('order: a1,a3 | b1,a2,b2,b3');
  });

  test('code mode locator.dragTo drops before the target (HTML5 lists)', async () => {
    const result: CallToolResult = await h.call('browser_run', {
      ...s,
      timeoutMs: 30_000,
      code: `
        await page.goto(${JSON.stringify(site.url('/widgets/lists?mode=html5'))});
        await page.locator('#a2').dragTo(page.locator('#b1'), { position: 'before' });
        return await page.locator('#status').textContent();
      `,
    });
    expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
    expect((result.structuredContent as { value: string }).value).toBe('order: a1,a3 | a2,b1,b2,b3');
  });

  test('code mode page.dragAndDrop takes selectors; dragTo refuses a non-locator target', async () => {
    const result: CallToolResult = await h.call('browser_run', {
      ...s,
      timeoutMs: 30_000,
      code: `
        await page.goto(${JSON.stringify(site.url('/widgets/lists?mode=pointer'))});
        await page.dragAndDrop('#a2', '#b3', { position: 'after' });
        const order = await page.locator('#status').textContent();
        try { await page.locator('#a1').dragTo('#b1'); } catch (e) { return [order, e.message]; }
        return [order, 'no error'];
      `,
    });
    expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
    const [order, message] = (result.structuredContent as { value: string[] }).value;
    expect(order).toBe('order: a1,a3 | b1,b2,b3,a2');
    expect(message).toContain('locator.dragTo: the target must be a locator');
  });
});
