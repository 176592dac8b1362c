/**
 * One launched Chromium per test worker, shared by every local runtime the worker's files start
 * (the `integration` project's setup file; the `integration-own-browser` project runs without it).
 *
 * A launch costs ~1.3 CPU-s and the suite's files start ~200 runtimes, so each runtime borrowing
 * the worker's browser instead (a new context per session, as always) takes minutes off a 2-core
 * run. What stays per runtime: its contexts, pages, guard proxy and queues. The runtime's provider
 * still believes it launched the browser; only the launch and the final close are redirected:
 * - `obtain` returns the worker's browser for the same launch options (launching it on first use,
 *   or again once it disconnected);
 * - `dispose` leaves the worker's browser running (each runtime closes its own contexts at shutdown).
 * After each file every context still open is closed, so no file sees another's pages. (Two runtimes
 * whose first sessions start at the same moment may launch a second browser; it stays unused.)
 *
 * Files that need a browser of their own (they kill it, count launches, or bind a URL interceptor
 * to the browser) belong to the `integration-own-browser` project in vitest.config.ts.
 */
import type { Browser } from 'playwright-core';
import { afterAll } from 'vitest';
import { LocalProvider } from '../../../src/engine/providers/local.js';

interface ProviderInternals {
  options: unknown;
  obtain(timeoutMs: number): Promise<Browser>;
  dispose(browser: Browser): Promise<void>;
}

const KEY = Symbol.for('browsermesh.test.workerBrowsers');
type WorkerBrowsers = Map<string, Promise<Browser>>;
const holder = globalThis as unknown as Record<symbol, WorkerBrowsers | undefined>;
const browsers: WorkerBrowsers = (holder[KEY] ??= new Map());
const shared = new WeakSet<Browser>();

const proto = LocalProvider.prototype as unknown as ProviderInternals & { [KEY]?: true };
if (!proto[KEY]) {
  proto[KEY] = true;
  const launch = proto.obtain;
  const close = proto.dispose;
  proto.obtain = async function (this: ProviderInternals, timeoutMs: number): Promise<Browser> {
    const key = JSON.stringify(this.options);
    const existing = await browsers.get(key)?.catch(() => undefined);
    if (existing?.isConnected()) return existing;
    const launching = launch.call(this, timeoutMs).then((browser) => {
      shared.add(browser);
      // Every runtime of the worker watches the one browser for its loss.
      (browser as unknown as { setMaxListeners?(n: number): void }).setMaxListeners?.(0);
      return browser;
    });
    browsers.set(key, launching);
    launching.catch(() => browsers.delete(key));
    return launching;
  };
  proto.dispose = async function (this: ProviderInternals, browser: Browser): Promise<void> {
    if (!shared.has(browser)) return close.call(this, browser);
  };
}

/** Closes every context a file left open in the worker's browsers (a runtime not shut down, a failed test). */
afterAll(async () => {
  for (const pending of browsers.values()) {
    const browser = await pending.catch(() => undefined);
    if (!browser?.isConnected()) continue;
    await Promise.all(browser.contexts().map((context) => context.close().catch(() => undefined)));
  }
});
