/**
 * Scoped snapshots through the other two faces: code mode's locator.snapshot() and AgentBrowser's
 * browser_snapshot {ref} scope to a container's subtree with working refs, and say why a scope shows
 * nothing instead of returning an empty text (the MCP tool's tests are in snapshot-scope.test.ts).
 */
import { describe, expect, test } from './support/fixtures.js';
import type { McpHarness } from '../helpers/harness.js';
import { ToolDriver } from './support/agent.js';

describe('code mode locator.snapshot()', () => {
  let h: McpHarness;
  let s: { sessionId: string; pageId: string };
  test.beforeAll(async ({ harness }) => {
    h = harness;
    s = await harness.session();
  });
  const run = async <T>(code: string): Promise<T> =>
    (await h.ok<{ value: T }>('browser_run', { ...s, code, timeoutMs: 45_000 })).value;

  test('scopes to a list, a table and an unnamed div, and its refs work', async ({ site }) => {
    const value = await run<{ list: string; table: string; div: string; url: string }>(`
      await page.goto(${JSON.stringify(site.url('/real/scopes'))});
      const list = await page.getByRole('list', { name: 'Things' }).snapshot();
      const table = await page.locator('table').snapshot();
      const div = await page.locator('#plain-div').snapshot({ interactiveOnly: true });
      const link = /\\[link (@e\\d+)[^\\]]*\\]? "?First thing/.exec(list)[1];
      await page.ref(link).click();
      return { list, table, div, url: await page.url() };
    `);
    expect(value.list.split('\n')[0]).toBe('[list] Things');
    expect(value.list).toContain('Second thing');
    expect(value.list).not.toContain('Tea');
    expect(value.table).toContain('Tea');
    expect(value.table).not.toContain('First thing');
    expect(value.div).toMatch(/\[button @e\d+\] Div button/);
    expect(value.url).toMatch(/#one$/);
  });

  test('says why a scope shows nothing; a missing element fails ELEMENT_NOT_FOUND', async ({ site }) => {
    const value = await run<{ hidden: string; empty: string; missing: string }>(`
      await page.goto(${JSON.stringify(site.url('/real/scopes'))});
      const hidden = await page.locator('#hidden-box').snapshot();
      const empty = await page.locator('#empty-box').snapshot();
      let missing = 'no error';
      try { await page.locator('#no-such-box').snapshot(); } catch (error) { missing = error.code; }
      return { hidden, empty, missing };
    `);
    expect(value.hidden).toBe('(empty scope: the element is not rendered)');
    expect(value.empty).toBe('(empty scope: the element holds nothing visible)');
    expect(value.missing).toBe('ELEMENT_NOT_FOUND');
  });
});

describe('AgentBrowser browser_snapshot { ref }', () => {
  test("shows one element's subtree with working refs, and says when it shows nothing", async ({
    site,
    agentBrowser,
  }) => {
    const t = new ToolDriver(agentBrowser, { threadId: 'scopes' });
    await t.ok('browser_goto', { url: site.url('/real/scopes') });
    const table = await t.ref('table', '');
    const scoped = await t.ok<{ snapshot: string; empty?: true }>('browser_snapshot', { ref: table });
    expect(scoped.snapshot).toContain('Tea');
    expect(scoped.snapshot).not.toContain('First thing');
    expect(scoped.empty).toBeUndefined();
    const button = await t.ref('button', 'Div button');
    const inner = await t.ok<{ snapshot: string }>('browser_snapshot', { ref: button });
    expect(inner.snapshot).toMatch(new RegExp(`\\[button ${button}\\] Div button`));
    await t.ok('browser_click', { ref: button });
    await t.ok('browser_evaluate', {
      script: 'document.getElementById("div-button").style.display = "none"',
    });
    const hidden = await t.ok<{ snapshot: string; empty?: true }>('browser_snapshot', { ref: button });
    expect(hidden).toMatchObject({ empty: true, snapshot: '(empty scope: the element is not rendered)' });
    const content = t.tool('browser_snapshot').toModelContent(hidden);
    expect(content[0]?.type === 'text' ? content[0].text : '').toContain('empty scope');
  });
});
