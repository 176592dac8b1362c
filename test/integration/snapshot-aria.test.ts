import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';
import { testAgentBrowser, ToolDriver } from './support/agent.js';

/** The snapshot shows the order and state a page declares with ARIA. */

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const snap = async (): Promise<string> => (await h.ok<{ snapshot: string }>('browser_snapshot', s)).snapshot;
const rowNames = (text: string): string[] =>
  [...text.matchAll(/\[row row=\d+\] @e\d+ (\w+) \|/g)].map((m) => m[1] ?? '');

describe('ARIA order and state in browser_snapshot', () => {
  test('lists grid rows in aria-rowindex order and shows the sort a click applied', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/real/grid') });
    const before = await snap();
    expect(before).toMatch(/\[grid @e\d+ rows=4\] People/);
    expect(rowNames(before)).toEqual(['Cleo', 'Abe', 'Bea']);
    expect(before).not.toContain('sort=');
    await h.ok('browser_click', { ...s, locator: { role: 'button', name: 'Name' } });
    const after = await snap();
    // The DOM order did not change; the page moved rows with CSS and said so with aria-rowindex.
    expect(rowNames(after)).toEqual(['Abe', 'Bea', 'Cleo']);
    expect(after).toMatch(
      /\[row header row=1\] \[columnheader sort=ascending\] \[button @e\d+[^\]]*\] Name \| Age/,
    );
  });

  test('shows aria-current, aria-busy and the range of sliders and progress bars', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/real/grid') });
    const text = await snap();
    expect(text).toMatch(/\[link @e\d+ current=page\] Page 1/);
    expect(text).toMatch(/\[link @e\d+\] Page 2/);
    expect(text).toMatch(/\[slider @e\d+ min=0 max=10 text="7 of 10" value=7\] Volume/);
    expect(text).toMatch(/\[progressbar now=40 min=0 max=100\] Upload/);
    expect(text).toMatch(/\[region (@e\d+ )?busy\] Results/);
  });
});

describe('AgentBrowser snapshot', () => {
  let browser: AgentBrowser;
  test.afterAll(async () => {
    await browser?.close();
  });
  test('shares the ARIA order and states', async () => {
    browser = testAgentBrowser();
    const t = new ToolDriver(browser);
    await t.ok('browser_goto', { url: site.url('/real/grid') });
    await t.ok('browser_click', { ref: /\[button (@e\d+)[^\]]*\] Name/.exec(await snapshotOf(t))?.[1] });
    const text = await snapshotOf(t);
    expect(rowNames(text)).toEqual(['Abe', 'Bea', 'Cleo']);
    expect(text).toContain('sort=ascending');
    expect(text).toContain('current=page');
  });
});

async function snapshotOf(t: ToolDriver): Promise<string> {
  const result = await t.ok<{ snapshot: string }>('browser_snapshot', {});
  return result.snapshot;
}
