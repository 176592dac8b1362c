import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../../src/config/load.js';
import { McpHarness } from '../../helpers/harness.js';
import { startForwardingProxy } from './forwarding-proxy.js';
import { startRemoteChromium, stopRemoteChromium } from './remote-chromium.js';
import { gridUnavailableReason } from './selenium-grid.js';
import { sharedGrid } from './shared-grid.js';

/**
 * The modes where no guard proxy sits in the browser's path and the URL policy is enforced by request
 * interception: an operator proxy (--proxy-server, one that forwards anything it is asked for, so a
 * request the policy let through would reach a trap), a remote-debugging Chromium (cdp provider) and
 * a real Selenium Grid. Loopback only.
 */
export interface InterceptionMode {
  name: string;
  /** Why the mode cannot run here (no Java or chromedriver for the Grid). */
  skip?: string | undefined;
  /** Starts what the mode needs; returns the config overrides and how to stop it. */
  setUp(): Promise<{ overrides: Partial<Config>; tearDown(): Promise<void> }>;
}

export const INTERCEPTION_MODES: InterceptionMode[] = [
  {
    name: 'operator proxy (--proxy-server)',
    async setUp() {
      const proxy = await startForwardingProxy();
      return { overrides: { proxyServer: proxy.url }, tearDown: () => proxy.close() };
    },
  },
  {
    name: 'cdp provider',
    async setUp() {
      // The operator's own browser, started as docs/security.md asks (network prediction off):
      // BrowserMesh does not change the profile of a browser it did not start.
      const remote = await startRemoteChromium({ noNetworkPrediction: true });
      return {
        // --cdp-guard off: the mode of a loopback endpoint tunnelled to a browser elsewhere, where no
        // guard proxy on this machine can sit in its path (interception only).
        overrides: { provider: 'cdp', cdpEndpoint: remote.httpEndpoint, cdpGuard: 'off' },
        tearDown: () => stopRemoteChromium(remote),
      };
    },
  },
  {
    name: 'selenium provider',
    skip: gridUnavailableReason(),
    async setUp() {
      const grid = await sharedGrid();
      return {
        overrides: { provider: 'selenium', seleniumUrl: grid.url, headless: true },
        tearDown: () => grid.stop(),
      };
    },
  },
];

/**
 * In a describe block: starts the mode and a harness whose policy blocks the alias 127.0.0.2, with
 * one session; `get()` returns them inside the tests (nothing starts when the mode is skipped).
 */
export function useModeHarness(mode: InterceptionMode): () => {
  h: McpHarness;
  s: { sessionId: string; pageId: string };
} {
  let h: McpHarness | undefined;
  let s: { sessionId: string; pageId: string } | undefined;
  let tearDown: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (mode.skip) return;
    const started = await mode.setUp();
    tearDown = started.tearDown;
    h = await McpHarness.start({
      ...started.overrides,
      blockedAddresses: ['127.0.0.2/32'],
      timeoutMs: 30_000,
    });
    s = await h.session();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await tearDown?.();
  }, 60_000);
  return () => {
    if (!h || !s) throw new Error(`${mode.name} did not start`);
    return { h, s };
  };
}
