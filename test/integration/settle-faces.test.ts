import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { refIn, testAgentBrowser, ToolDriver } from './support/agent.js';
import { describe, expect, test } from './support/fixtures.js';

/**
 * Navigation and action settling through the other two faces: AgentBrowser's tools and code mode (browser_run) share the
 * operations' "done" — a navigation once the document is parsed, an action once its effects settled,
 * a sleep not before the page's short timers have run.
 */

let site: FixtureServer;
let h: McpHarness;
let browser: AgentBrowser;
let t: ToolDriver;

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  browser = testAgentBrowser();
  t = new ToolDriver(browser, { threadId: 'settle' });
});
test.afterAll(async () => {
  await browser?.close();
});

describe('AgentBrowser', () => {
  test('browser_goto and browser_back reach a page whose load never comes', async () => {
    const page = await t.ok('browser_goto', { url: site.url('/settle/hanging?n=7'), timeout: 8000 });
    expect(page).toMatchObject({ title: 'Hanging 7', status: 200, loadState: 'domcontentloaded' });
    await t.ok('browser_goto', { url: site.url('/settle/next') });
    const back = await t.ok('browser_back');
    expect(back).toMatchObject({ title: 'Hanging 7', moved: true, loadState: 'domcontentloaded' });
  });

  test('browser_click returns after a delayed navigation and a delayed relabel', async () => {
    await t.ok('browser_goto', { url: site.url('/settle/delayed') });
    let snap = await t.ok<{ snapshot: string }>('browser_snapshot');
    const changed = await t.ok<{ settled?: { navigation?: true; mutations?: number } }>('browser_click', {
      ref: refIn(snap.snapshot, 'button', 'Change later'),
    });
    expect(changed.settled?.navigation).toBeUndefined();
    expect(changed.settled?.mutations).toBeGreaterThan(0);
    expect(await t.text('text')).toBe('Changed');
    snap = await t.ok<{ snapshot: string }>('browser_snapshot');
    const went = await t.ok<{ url?: string; settled?: { navigation?: true } }>('browser_click', {
      ref: refIn(snap.snapshot, 'button', 'Go later'),
    });
    expect(went).toMatchObject({ url: site.url('/settle/next'), settled: { navigation: true } });
  });

  test('accepts about:blank and refuses file: with INVALID_ARGUMENT', async () => {
    expect(await t.ok('browser_goto', { url: 'about:blank' })).toMatchObject({ url: 'about:blank' });
    expect((await t.fails('browser_goto', { url: 'file:///etc/passwd' })).code).toBe('INVALID_ARGUMENT');
  });
});

interface CodeOut<T> {
  value: T;
}

describe('code mode', () => {
  test('page.goto returns on a page whose load never comes; a click returns on the page it led to', async () => {
    const s = await h.session();
    const out = await h.ok<CodeOut<{ title: string; after: string }>>('browser_run', {
      ...s,
      code: `await page.goto(${JSON.stringify(site.url('/settle/hanging?n=8'))});
        const title = await page.title();
        await page.goto(${JSON.stringify(site.url('/settle/delayed'))});
        await page.getByRole('button', { name: 'Go later' }).click();
        return { title, after: await page.url() };`,
      timeoutMs: 20_000,
    });
    expect(out.value).toEqual({ title: 'Hanging 8', after: site.url('/settle/next') });
  });

  test('waitForTimeout does not end before a short timer the page scheduled has added its content', async () => {
    const s = await h.session();
    const out = await h.ok<CodeOut<{ late: number; sleptMs: number }>>('browser_run', {
      ...s,
      code: `await page.goto(${JSON.stringify(site.url('/settle/late-timer?ms=800'))});
        const t = Date.now();
        await page.waitForTimeout(5000);
        const sleptMs = Date.now() - t;
        return { late: await page.locator('#late').count(), sleptMs };`,
      timeoutMs: 20_000,
    });
    expect(out.value.late).toBe(1);
    // Still a quiet-aware sleep: it ended once the page was done, not at 5 s.
    expect(out.value.sleptMs).toBeLessThan(5000);
  });

  test('a loop of awaited short sleeps does not pin a quiet-aware sleep', async () => {
    const s = await h.session();
    const out = await h.ok<CodeOut<number>>('browser_run', {
      ...s,
      code: `await page.goto(${JSON.stringify(site.url('/settle/async-loop'))});
        const t = Date.now();
        await page.waitForTimeout(4000);
        return Date.now() - t;`,
      timeoutMs: 20_000,
    });
    expect(out.value).toBeLessThan(4000);
  });

  test('a batch goto says when the load event had not come', async () => {
    const s = await h.session();
    const out = await h.ok<{ results: Array<Record<string, unknown>> }>('browser_run', {
      ...s,
      actions: [
        { action: 'goto', url: site.url('/settle/hanging?n=10') },
        { action: 'goto', url: site.url('/quiet') },
      ],
      timeoutMs: 20_000,
    });
    expect(out.results[0]).toMatchObject({ title: 'Hanging 10', loadState: 'domcontentloaded' });
    expect(out.results[1]).not.toHaveProperty('loadState');
  });
});
