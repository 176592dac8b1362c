/**
 * AgentBrowser lifecycle: launch and close de-duplicated under concurrency, close during launch,
 * relaunch after the browser was killed, hooks, and cdpUrl (a string, and a function resolved at
 * each launch) against a Chromium this test starts — which must still be running after close().
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { describe, expect, test } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import {
  isRunning,
  startRemoteChromium,
  stopRemoteChromium,
  testAgentBrowser,
  ToolDriver,
  until,
  type RemoteChromium,
} from './support/agent.js';

/** Chromium browser processes that are children of this test process (the ones Playwright launched here). */
function ownChromiumPids(): Set<number> {
  const pids = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const match = /^\d+ \((.*)\) \S (\d+)/.exec(stat);
      if (match && Number(match[2]) === process.pid && /chrom/i.test(match[1] ?? '')) pids.add(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

describe('launch and close', () => {
  test('shares one launch between concurrent calls and calls onLaunch/onClose once each', async ({
    site,
  }) => {
    const events: string[] = [];
    let hookTarget: AgentBrowser | undefined;
    const browser = testAgentBrowser({
      onLaunch: ({ browser: b }) => {
        events.push('launch');
        hookTarget = b;
      },
      onClose: () => void events.push('close'),
    });
    expect(browser.status).toBe('pending');
    const before = ownChromiumPids();
    await Promise.all([
      browser.launch(),
      browser.launch(),
      new ToolDriver(browser).ok('browser_goto', { url: site.url('/') }),
    ]);
    await browser.launch();
    expect(browser.status).toBe('ready');
    expect(hookTarget).toBe(browser);
    expect([...ownChromiumPids()].filter((pid) => !before.has(pid))).toHaveLength(1);
    await Promise.all([browser.close(), browser.close()]);
    await browser.close();
    expect(browser.status).toBe('closed');
    expect(events).toEqual(['launch', 'close']);
    await until(
      () => [...ownChromiumPids()].every((pid) => before.has(pid)),
      15_000,
      'the launched Chromium to exit',
    );
  });

  test('closes a browser that was still launching, and launches again on the next call', async ({ site }) => {
    const browser = testAgentBrowser();
    const before = ownChromiumPids();
    const launching = browser.launch();
    const closing = browser.close();
    await expect(launching).rejects.toMatchObject({ code: 'BROWSER_ERROR' });
    await closing;
    expect(browser.status).toBe('closed');
    await until(
      () => [...ownChromiumPids()].every((pid) => before.has(pid)),
      15_000,
      'the half-launched Chromium to exit',
    );
    const driver = new ToolDriver(browser);
    await driver.ok('browser_goto', { url: site.url('/') });
    expect(browser.status).toBe('ready');
    await browser.close();
  });

  test('relaunches after the browser was killed, telling the thread once that its state is gone', async ({
    site,
  }) => {
    let launches = 0;
    const browser = testAgentBrowser({ onLaunch: () => void launches++ });
    const driver = new ToolDriver(browser, { threadId: 'crash' });
    const before = ownChromiumPids();
    await driver.ok('browser_goto', { url: site.url('/') });
    const [pid] = [...ownChromiumPids()].filter((p) => !before.has(p));
    expect(pid).toBeDefined();
    process.kill(pid ?? 0, 'SIGKILL');
    await until(() => browser.status === 'closed', 15_000, 'the disconnect to be noticed');
    const lost = await driver.fails('browser_snapshot');
    expect(lost.code).toBe('BROWSER_DISCONNECTED');
    const page = await driver.ok<{ title: string }>('browser_goto', { url: site.url('/actions/buttons') });
    expect(page.title).toBe('Actions: buttons');
    expect(browser.status).toBe('ready');
    expect(launches).toBe(2);
    await browser.close();
  });

  test('reports a launch failure as an error result, and the status says error', async ({ site }) => {
    const browser = testAgentBrowser({ executablePath: '/nonexistent/chromium' });
    const error = await new ToolDriver(browser).fails('browser_goto', { url: site.url('/') });
    expect(error.code).toBe('BROWSER_ERROR');
    expect(browser.status).toBe('error');
    expect(browser.error).toBeTruthy();
    await browser.close();
  });

  test('refuses bad constructor options naming the option', () => {
    expect(() => testAgentBrowser({ timeout: -1 })).toThrow(/timeout/);
    expect(() => testAgentBrowser({ cdpUrl: 'file:///etc/passwd' })).toThrow(/cdpUrl/);
    expect(() => testAgentBrowser({ excludeTools: ['browser_nope' as 'browser_goto'] })).toThrow(
      /excludeTools/,
    );
  });
});

describe('cdpUrl: a browser someone else started', () => {
  let remote: RemoteChromium;
  beforeAll(async () => {
    remote = await startRemoteChromium();
  }, 60_000);
  afterAll(async () => {
    if (remote) await stopRemoteChromium(remote);
  });

  test('connects with a string, defaults to shared scope, and leaves the browser running on close', async ({
    site,
  }) => {
    const browser = testAgentBrowser({ cdpUrl: remote.wsEndpoint });
    expect(browser.scope).toBe('shared');
    const a = new ToolDriver(browser, { threadId: 'a' });
    await a.ok('browser_goto', { url: site.url('/shop/') });
    // Shared scope: another thread sees the same session (same tab list).
    const tabs = await new ToolDriver(browser, { threadId: 'b' }).ok<{ tabs: Array<{ url: string }> }>(
      'browser_tabs',
      { action: 'list' },
    );
    expect(tabs.tabs.map((tab) => tab.url)).toContain(site.url('/shop/'));
    await browser.close();
    expect(browser.status).toBe('closed');
    expect(isRunning(remote)).toBe(true);
    const version = await fetch(`http://${new URL(remote.wsEndpoint).host}/json/version`);
    expect(version.ok).toBe(true);
  });

  test('resolves an async cdpUrl function at every launch, and still never kills the browser', async ({
    site,
  }) => {
    let resolved = 0;
    const browser = testAgentBrowser({
      cdpUrl: async () => {
        resolved++;
        return remote.wsEndpoint;
      },
    });
    const driver = new ToolDriver(browser);
    await driver.ok('browser_goto', { url: site.url('/') });
    await browser.close();
    await driver.ok('browser_goto', { url: site.url('/actions/buttons') });
    expect(resolved).toBe(2);
    await browser.close();
    expect(isRunning(remote)).toBe(true);
  });

  test('gives each thread its own context on the remote browser when thread scope is asked for', async ({
    site,
  }) => {
    const browser = testAgentBrowser({ cdpUrl: remote.wsEndpoint, scope: 'thread' });
    const setCookie = "document.cookie = 'who=a; path=/'; document.cookie";
    const a = new ToolDriver(browser, { threadId: 'a' });
    const b = new ToolDriver(browser, { threadId: 'b' });
    await Promise.all([
      a.ok('browser_goto', { url: site.url('/') }),
      b.ok('browser_goto', { url: site.url('/') }),
    ]);
    expect(
      (await a.ok<{ value: string }>('browser_evaluate', { script: setCookie, returnValue: true })).value,
    ).toContain('who=a');
    expect(
      (await b.ok<{ value: string }>('browser_evaluate', { script: 'document.cookie', returnValue: true }))
        .value,
    ).not.toContain('who=a');
    await browser.close();
    expect(isRunning(remote)).toBe(true);
  });

  test('reports a cdpUrl function that throws, without its text', async ({ site }) => {
    const browser = testAgentBrowser({
      cdpUrl: () => {
        throw new Error('secret-token-123');
      },
    });
    const error = await new ToolDriver(browser).fails('browser_goto', { url: site.url('/') });
    expect(error.code).toBe('BROWSER_ERROR');
    expect(JSON.stringify(error)).not.toContain('secret-token-123');
    await browser.close();
  });
});
