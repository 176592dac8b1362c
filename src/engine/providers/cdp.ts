import type { Browser } from 'playwright-core';
import { loadChromium } from './playwright-loader.js';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { Placement, ProviderStatus } from './provider.js';
import { SharedBrowserProvider } from './shared-browser.js';

export interface CdpProviderOptions {
  endpoint: string;
  headers?: Record<string, string>;
}

/**
 * Connects to a browser someone else started (a `--remote-debugging-port` Chromium, a hosted CDP
 * URL). Sessions get their own contexts on it. Shutdown only disconnects: the process is not ours.
 */
export class CdpProvider extends SharedBrowserProvider {
  readonly name = 'cdp';
  protected readonly ownsProcess = false;

  constructor(private readonly options: CdpProviderOptions) {
    super();
  }

  protected async obtain(timeoutMs: number): Promise<Browser> {
    try {
      return await (
        await loadChromium()
      ).connectOverCDP(this.options.endpoint, {
        timeout: timeoutMs,
        ...(this.options.headers ? { headers: this.options.headers } : {}),
      });
    } catch (error) {
      throw new BrowserMeshError(
        ErrorCodes.BROWSER_ERROR,
        `Could not connect to the CDP endpoint ${safeEndpoint(this.options.endpoint)}`,
        {
          cause: error,
          details: { reason: 'cdp_connect_failed' },
        },
      );
    }
  }

  protected placement(): Placement {
    return { provider: 'cdp', node: safeEndpoint(this.options.endpoint) };
  }

  override status(): ProviderStatus {
    return { ...super.status(), endpoint: safeEndpoint(this.options.endpoint) };
  }

  protected async dispose(browser: Browser): Promise<void> {
    // For a browser reached with connectOverCDP, close() drops our contexts and disconnects; the
    // remote process keeps running.
    await browser.close();
  }
}

/** host:port of an endpoint, without credentials, path or query (they may hold tokens). */
export function safeEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(invalid endpoint)';
  }
}
