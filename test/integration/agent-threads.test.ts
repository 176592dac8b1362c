/**
 * Thread scope and shared scope: the thread comes with each tool call. In thread scope two threads
 * log in as different users at the same time and nothing leaks (cookies, tabs, refs); in shared
 * scope threads share the session but each keeps its own current tab. Concurrent calls from two
 * threads run side by side.
 */
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { AgentBrowserOptions } from '../../src/agent/options.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { testAgentBrowser, ToolDriver } from './support/agent.js';

let site: FixtureServer;

// The file's site and its thread-scope AgentBrowser come from the shared fixtures; the shared-scope
// AgentBrowser is the file's second one, started when its describe names it.
const test = fixtureTest
  .extend('agentOptions', { scope: 'file' }, (): AgentBrowserOptions => ({ scope: 'thread' }))
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('sharedScopeBrowser', { scope: 'file' }, ({}, { onCleanup }): AgentBrowser => {
    const browser = testAgentBrowser({ scope: 'shared' });
    onCleanup(() => browser.close());
    return browser;
  });

test.beforeAll(({ site: fileSite }) => {
  site = fileSite;
});

async function logIn(t: ToolDriver, username: string, password: string): Promise<void> {
  await t.ok('browser_goto', { url: site.url('/shop/login') });
  await t.ok('browser_type', { ref: await t.ref('textbox', 'Username'), text: username });
  await t.ok('browser_type', { ref: await t.ref('textbox', 'Password'), text: password });
  await t.ok('browser_click', { ref: await t.ref('button', 'Sign in') });
}

/** Who the shop thinks this thread is, from its own cookies. */
async function whoami(t: ToolDriver): Promise<string | null> {
  await t.ok('browser_goto', { url: site.url('/shop/whoami') });
  const { value } = await t.ok<{ value: string }>('browser_evaluate', {
    script: 'document.body.innerText',
    returnValue: true,
  });
  return (JSON.parse(value) as { user: string | null }).user;
}

describe('thread scope', () => {
  let browser: AgentBrowser;
  test.beforeAll(({ agentBrowser }) => {
    browser = agentBrowser;
  });

  test('gives each thread its own session: two logins at once, no leak', async () => {
    const buyer = new ToolDriver(browser, { threadId: 'thread-buyer' });
    const admin = new ToolDriver(browser, { threadId: 'thread-admin' });
    await Promise.all([logIn(buyer, 'buyer', 'buyer-pass'), logIn(admin, 'admin', 'admin-pass')]);
    expect(await whoami(buyer)).toBe('buyer');
    expect(await whoami(admin)).toBe('admin');
    expect(await whoami(new ToolDriver(browser, { threadId: 'thread-anonymous' }))).toBeNull();
    // The default thread (no threadId) is a thread of its own too.
    expect(await whoami(new ToolDriver(browser))).toBeNull();
    // Tabs do not leak either.
    await buyer.ok('browser_tabs', { action: 'new', url: site.url('/shop/cart') });
    const adminTabs = await admin.ok<{ tabs: unknown[] }>('browser_tabs', { action: 'list' });
    expect(adminTabs.tabs).toHaveLength(1);
    expect(browser.hasThread('thread-buyer')).toBe(true);
    expect(browser.hasThread('never-called')).toBe(false);
  });

  test('refuses a ref from another thread with a structured error, and the next call works', async () => {
    const a = new ToolDriver(browser, { threadId: 'refs-a' });
    const b = new ToolDriver(browser, { threadId: 'refs-b' });
    await a.ok('browser_goto', { url: site.url('/shop/login') });
    await a.ok('browser_snapshot', {});
    await a.ok('browser_goto', { url: site.url('/shop/') });
    const aSnapshot = await a.ok<{ snapshot: string }>('browser_snapshot', {});
    const highest = Math.max(...[...aSnapshot.snapshot.matchAll(/@e(\d+)/g)].map((m) => Number(m[1])));
    await b.ok('browser_goto', { url: site.url('/actions/buttons') });
    await b.ok('browser_snapshot', { interactiveOnly: true });
    const foreign = await b.fails('browser_click', { ref: `@e${highest}` });
    expect(['STALE_ELEMENT_REFERENCE', 'ELEMENT_NOT_FOUND']).toContain(foreign.code);
    await b.ok('browser_click', { ref: await b.ref('button', 'Increment') });
    expect(await b.text('count')).toBe('Count: 1');
    // Thread a's page was not touched.
    expect((await a.ok<{ url: string }>('browser_snapshot', {})).url).toBe(site.url('/shop/'));
  });

  test('runs concurrent calls of two threads side by side, each on its own page', async () => {
    const one = new ToolDriver(browser, { threadId: 'busy-1' });
    const two = new ToolDriver(browser, { threadId: 'busy-2' });
    const run = async (t: ToolDriver, clicks: number): Promise<string> => {
      await t.ok('browser_goto', { url: site.url('/actions/buttons') });
      const increment = await t.ref('button', 'Increment');
      await Promise.all(Array.from({ length: clicks }, () => t.ok('browser_click', { ref: increment })));
      return t.text('count');
    };
    const [first, second] = await Promise.all([run(one, 3), run(two, 5)]);
    expect(first).toBe('Count: 3');
    expect(second).toBe('Count: 5');
  });

  test('closes one thread without touching another', async () => {
    const keep = new ToolDriver(browser, { threadId: 'keep' });
    const drop = new ToolDriver(browser, { threadId: 'drop' });
    await Promise.all([logIn(keep, 'buyer', 'buyer-pass'), logIn(drop, 'admin', 'admin-pass')]);
    await browser.closeThread('drop');
    expect(browser.hasThread('drop')).toBe(false);
    expect(await whoami(keep)).toBe('buyer');
    expect(await whoami(drop)).toBeNull();
  });
});

describe('shared scope', () => {
  let browser: AgentBrowser;
  test.beforeAll(({ sharedScopeBrowser }) => {
    browser = sharedScopeBrowser;
  });

  test('shares one session between threads, while each thread keeps its own current tab', async () => {
    const x = new ToolDriver(browser, { threadId: 'shared-x' });
    const y = new ToolDriver(browser, { threadId: 'shared-y' });
    await logIn(x, 'buyer', 'buyer-pass');
    expect(await whoami(y)).toBe('buyer');
    await x.ok('browser_tabs', { action: 'new', url: site.url('/actions/buttons') });
    type Tabs = { tabs: Array<{ url: string; current: boolean }>; currentIndex: number };
    const seenByX = await x.ok<Tabs>('browser_tabs', { action: 'list' });
    const seenByY = await y.ok<Tabs>('browser_tabs', { action: 'list' });
    expect(seenByX.tabs.map((tab) => tab.url)).toEqual(seenByY.tabs.map((tab) => tab.url));
    expect(seenByX.currentIndex).toBe(1);
    expect(seenByY.currentIndex).toBe(0);
    expect((await y.ok<{ url: string }>('browser_snapshot', { interactiveOnly: true })).url).toBe(
      site.url('/shop/whoami'),
    );
    expect((await x.ok<{ url: string }>('browser_snapshot', { interactiveOnly: true })).url).toBe(
      site.url('/actions/buttons'),
    );
  });

  test('browser_close in shared scope closes the browser, and the next call starts it again', async () => {
    const x = new ToolDriver(browser, { threadId: 'shared-x' });
    expect(await x.ok('browser_close', {})).toEqual({ closed: 'browser' });
    expect(browser.status).toBe('closed');
    expect(await whoami(x)).toBeNull();
    expect(browser.status).toBe('ready');
  });
});
