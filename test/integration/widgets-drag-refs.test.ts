/**
 * Things you drag have refs: draggable elements, elements the page marks as drag handles
 * (cursor: grab / move) and drop targets (ondrop / ondragover attributes, a list of draggable items,
 * a role=region zone) get refs, so drag and drop works by ref on every face; a big page gets no more
 * refs than before.
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

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const status = async (): Promise<string> => {
  const { snapshot } = await h.ok<{ snapshot: string }>('browser_snapshot', s);
  return /\[status\] (.*)/.exec(snapshot)?.[1] ?? '';
};

describe('MCP', () => {
  test('gives refs to draggable items, their list, drop zones and grab handles', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/drag') });
    const { snapshot } = await h.ok<{ snapshot: string }>('browser_snapshot', s);
    expect(snapshot).toMatch(/\[list @e\d+\] To do/);
    expect(snapshot).toMatch(/\[listitem @e\d+ draggable\] Write spec/);
    expect(snapshot).toMatch(/\[listitem @e\d+ draggable\] Review patch/);
    expect(snapshot).toMatch(/@e\d+[^\]]*\] Done column/);
    expect(snapshot).toMatch(/\[region @e\d+\] Trash/);
    expect(snapshot).toMatch(/@e\d+[^\]]*\] Resize handle/);
  });

  test('drags by ref onto a marked zone and onto a region', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/drag') });
    const { snapshot } = await h.ok<{ snapshot: string }>('browser_snapshot', s);
    await h.ok('browser_drag_and_drop', {
      ...s,
      source: { ref: refOf(snapshot, /(@e\d+) draggable\] Write spec/) },
      target: { ref: refOf(snapshot, /(@e\d+)[^\]]*\] Done column/) },
    });
    expect(await status()).toBe('Write spec -> Done');
    await h.ok('browser_drag_and_drop', {
      ...s,
      source: { ref: refOf(snapshot, /(@e\d+) draggable\] Review patch/) },
      target: { ref: refOf(snapshot, /\[region (@e\d+)\] Trash/) },
    });
    expect(await status()).toBe('Review patch -> Trash');
  });

  test('does not flood a big page: /large has the same refs as before', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/large') });
    const full = await h.ok<{ refCount: number }>('browser_snapshot', s);
    const interactive = await h.ok<{ refCount: number }>('browser_snapshot', { ...s, interactiveOnly: true });
    expect(interactive.refCount).toBe(LARGE_REFS.interactive);
    // The full snapshot is cut by its character budget, and ref numbers come from one counter for
    // the whole process (src/snapshot/refs.ts): after other files' snapshots its refs are longer
    // (@e12345, not @e12), so a line or two fewer fit. Flooding would add hundreds.
    expect(full.refCount).toBeGreaterThanOrEqual(LARGE_REFS.full - 3);
    expect(full.refCount).toBeLessThanOrEqual(LARGE_REFS.full);
  });
});

/** Measured on the commit before draggable refs. */
const LARGE_REFS = { full: 218, interactive: 875 };

describe('AgentBrowser', () => {
  let browser: AgentBrowser;
  test.afterAll(async () => {
    await browser?.close();
  });

  test('browser_drag moves a draggable item onto the region by ref', async () => {
    browser = testAgentBrowser();
    const t = new ToolDriver(browser, { threadId: 'drag-refs' });
    await t.ok('browser_goto', { url: site.url('/widgets/drag') });
    const { snapshot } = await t.ok<{ snapshot: string }>('browser_snapshot');
    await t.ok('browser_drag', {
      sourceRef: refOf(snapshot, /(@e\d+) draggable\] Write spec/),
      targetRef: refOf(snapshot, /\[region (@e\d+)\] Trash/),
    });
    expect(await t.text('status')).toBe('Write spec -> Trash');
  });
});
