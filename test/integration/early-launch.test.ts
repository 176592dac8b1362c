import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { launchEarly, LocalProvider, type LocalProviderOptions } from '../../src/engine/providers/local.js';
import { CHROMIUM } from '../helpers/harness.js';
import { waitFor } from './support/wait.js';

// The stdio server begins Chromium's launch before it loads itself (cli/server-face.ts); the
// provider made afterwards takes that launch instead of starting a second one. Counted by the
// Chromium processes this worker started (their parent is this process), so the file runs with a
// browser of its own.

const OPTIONS: LocalProviderOptions = { headless: true, executablePath: CHROMIUM, sandbox: false };
const TIMEOUT_MS = 30_000;

/** Chromium processes whose parent is this process: one per launched browser. */
function launchedBrowsers(): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue;
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === process.pid && /chrom/i.test(name)) count += 1;
  }
  return count;
}

let provider: LocalProvider | undefined;

afterEach(async () => {
  // Also ends a launch begun early that the test left untaken.
  await (provider ?? new LocalProvider(OPTIONS)).shutdown();
  provider = undefined;
  await waitFor(() => launchedBrowsers() === 0, TIMEOUT_MS, 'every Chromium of the test closed');
});

describe.skipIf(process.platform !== 'linux')('a launch begun before the server loaded', () => {
  it('is taken by the provider with the same options: one Chromium, not two', async () => {
    expect(launchedBrowsers()).toBe(0);
    await launchEarly(OPTIONS, TIMEOUT_MS);
    provider = new LocalProvider(OPTIONS);
    const lease = await provider.acquire({ timeoutMs: TIMEOUT_MS });
    expect(lease.browser.isConnected()).toBe(true);
    expect(provider.status().state).toBe('ready');
    expect(launchedBrowsers()).toBe(1);
    // And it works as a launched browser does.
    const context = await lease.browser.newContext();
    const page = await context.newPage();
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    await context.close();
  });

  it('is closed when the provider was made with other options, which launches its own', async () => {
    // Another executable path (the one Chromium found on PATH) is another launch.
    await launchEarly({ ...OPTIONS, executablePath: '' }, TIMEOUT_MS);
    provider = new LocalProvider(OPTIONS);
    const lease = await provider.acquire({ timeoutMs: TIMEOUT_MS });
    expect(lease.browser.isConnected()).toBe(true);
    await waitFor(() => launchedBrowsers() === 1, TIMEOUT_MS, 'the early browser closed');
  });

  it('ends with a server that shuts down before any session took it', async () => {
    await launchEarly(OPTIONS, TIMEOUT_MS);
    provider = new LocalProvider(OPTIONS);
    await provider.shutdown();
    await waitFor(() => launchedBrowsers() === 0, TIMEOUT_MS, 'the untaken browser closed');
  });

  it('fails as that launch would, and leaves nothing behind for the next provider', async () => {
    const missing = { ...OPTIONS, executablePath: '/nonexistent/chromium' };
    await launchEarly(missing, TIMEOUT_MS);
    provider = new LocalProvider(missing);
    await expect(provider.acquire({ timeoutMs: TIMEOUT_MS })).rejects.toMatchObject({
      code: 'BROWSER_ERROR',
      details: { reason: 'browser_not_found' },
    });
    await provider.shutdown();
    provider = new LocalProvider(OPTIONS);
    expect((await provider.acquire({ timeoutMs: TIMEOUT_MS })).browser.isConnected()).toBe(true);
  });
});
