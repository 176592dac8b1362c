import type { Browser } from 'playwright-core';
import { loadChromium } from './playwright-loader.js';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { AcquireOptions, BrowserLease, Placement, ProviderStatus } from './provider.js';
import { admitEndpointHost } from './remote-guard.js';
import { SharedBrowserProvider } from './shared-browser.js';
import { isLoopbackEndpoint } from '../../url-policy/address.js';

/** `{session}` in a CLI endpoint template becomes a fresh random id for every session. */
export const SESSION_PLACEHOLDER = '{session}';

export interface CdpProviderOptions {
  endpoint: string;
  headers?: Record<string, string>;
  /** `--cdp-guard`: auto = a loopback endpoint's sessions use the guard proxy; off = never. */
  guard?: 'auto' | 'off';
  /**
   * `--guard-host`: the browser is on another machine that reaches this one at this address; each
   * session's guard listens there, admits only the endpoint's host, and is the context's proxy.
   */
  guardHost?: string;
}

/**
 * Whether the endpoint's browser counts as this machine's (`--cdp-guard auto` and a loopback endpoint
 * without a per-session placeholder): its sessions' contexts can reach a guard proxy on loopback.
 */
export function cdpOnThisMachine(endpoint: string, guard: 'auto' | 'off' = 'auto'): boolean {
  return guard === 'auto' && !endpoint.includes(SESSION_PLACEHOLDER) && isLoopbackEndpoint(endpoint);
}

/**
 * Connects to a browser someone else started (a `--remote-debugging-port` Chromium, a hosted CDP
 * URL). Sessions get their own contexts on it. Shutdown only disconnects: the process is not ours.
 */
export class CdpProvider extends SharedBrowserProvider {
  readonly name = 'cdp';
  protected readonly ownsProcess = false;
  readonly onThisMachine: boolean;
  readonly guardHost?: string;
  readonly guardDelivery = 'context' as const;

  constructor(private readonly options: CdpProviderOptions) {
    super();
    if (options.guardHost) this.guardHost = options.guardHost;
    this.onThisMachine = !options.guardHost && cdpOnThisMachine(options.endpoint, options.guard);
  }

  override async acquire(options: AcquireOptions): Promise<BrowserLease> {
    // Admitted before the lease is handed over: the context (and its first connection) comes after.
    if (options.nodeProxy) await admitEndpointHost(options.nodeProxy, this.options.endpoint);
    return super.acquire(options);
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
