import type { Browser } from 'playwright-core';
import { loadChromium } from './playwright-loader.js';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { newId } from '../ids.js';
import { safeEndpoint, SESSION_PLACEHOLDER } from './cdp.js';
import type { AcquireOptions, BrowserLease, BrowserProvider, ProviderStatus } from './provider.js';
import { admitEndpointHost } from './remote-guard.js';

/** A minted endpoint, with what gives the hosted browser back when its session closes. */
export interface MintedCdpEndpoint {
  endpoint: string;
  /** Called once when the session closes (or its start fails), so a hosted browser is not left running. */
  release?: () => void | Promise<void>;
}

/**
 * Returns a fresh CDP endpoint for one new session (hosted providers mint one URL per browser): the
 * URL, or the URL and its `release` hook.
 */
export type CdpEndpointMinter = () => string | MintedCdpEndpoint | Promise<string | MintedCdpEndpoint>;

export interface PerSessionCdpOptions {
  mint: CdpEndpointMinter;
  headers?: Record<string, string>;
  /** `--guard-host`: each session's guard listens there and admits only its endpoint's host. */
  guardHost?: string;
}

/**
 * One CDP connection per session, each to an endpoint minted for it: a hosted browser per session, or
 * `--cdp-endpoint 'wss://host/…{session}…'` on the CLI. Release only disconnects; the remote browser
 * belongs to whoever minted it. A dead connection fails only the session that used it.
 */
export class PerSessionCdpProvider implements BrowserProvider {
  readonly name = 'cdp';
  private readonly open = new Set<Browser>();
  private lastEndpoint: string | undefined;
  private closed = false;
  readonly guardHost?: string;
  readonly guardDelivery = 'context' as const;

  constructor(private readonly options: PerSessionCdpOptions) {
    if (options.guardHost) this.guardHost = options.guardHost;
  }

  async acquire(options: AcquireOptions): Promise<BrowserLease> {
    if (this.closed) throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The runtime is shutting down');
    const { endpoint, release: releaseHosted } = await this.mintEndpoint();
    let released = false;
    const giveBack = async (): Promise<void> => {
      if (released) return;
      released = true;
      await Promise.resolve()
        .then(() => releaseHosted?.())
        .catch(() => undefined);
    };
    let browser: Browser;
    try {
      if (options.nodeProxy) await admitEndpointHost(options.nodeProxy, endpoint);
      browser = await (
        await loadChromium()
      ).connectOverCDP(endpoint, {
        timeout: options.timeoutMs,
        ...(this.options.headers ? { headers: this.options.headers } : {}),
      });
    } catch (error) {
      await giveBack();
      if (error instanceof BrowserMeshError) throw error;
      throw new BrowserMeshError(
        ErrorCodes.BROWSER_ERROR,
        `Could not connect to the CDP endpoint ${safeEndpoint(endpoint)}`,
        {
          cause: error,
          details: { reason: 'cdp_connect_failed' },
        },
      );
    }
    this.open.add(browser);
    browser.once('disconnected', () => this.open.delete(browser));
    const release = async (): Promise<void> => {
      this.open.delete(browser);
      await browser.close().catch(() => undefined);
      await giveBack();
    };
    return {
      browser,
      placement: { provider: 'cdp', node: safeEndpoint(endpoint) },
      ownsProcess: false,
      release,
    };
  }

  status(): ProviderStatus {
    return perSessionStatus(this.name, this.open, this.lastEndpoint);
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    await closeAll(this.open);
  }

  private async mintEndpoint(): Promise<MintedCdpEndpoint> {
    let minted: string | MintedCdpEndpoint;
    try {
      minted = await this.options.mint();
    } catch (error) {
      throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The CDP endpoint function failed', {
        cause: error,
        details: { reason: 'cdp_mint_failed' },
      });
    }
    const result = typeof minted === 'string' ? { endpoint: minted } : minted;
    const endpoint = result?.endpoint;
    if (typeof endpoint !== 'string' || !/^(https?|wss?):\/\/\S+$/.test(endpoint)) {
      await Promise.resolve()
        .then(() => result?.release?.())
        .catch(() => undefined);
      throw new BrowserMeshError(
        ErrorCodes.BROWSER_ERROR,
        'The CDP endpoint function returned no http(s)/ws(s) URL',
        {
          details: { reason: 'cdp_mint_invalid' },
        },
      );
    }
    this.lastEndpoint = endpoint;
    return result;
  }
}

export function templateMinter(template: string): CdpEndpointMinter {
  return () => template.split(SESSION_PLACEHOLDER).join(newId('s').slice(2));
}

/** A per-session remote provider's status: ready while one of its browsers is connected. */
export function perSessionStatus(
  provider: string,
  open: ReadonlySet<Browser>,
  lastEndpoint: string | undefined,
): ProviderStatus {
  const connected = [...open].find((browser) => browser.isConnected());
  return {
    provider,
    state: connected ? 'ready' : 'idle',
    browserVersion: connected ? connected.version() : null,
    ...(lastEndpoint ? { endpoint: safeEndpoint(lastEndpoint) } : {}),
  };
}

/** Closes every browser a per-session provider still holds. */
export async function closeAll(open: Set<Browser>): Promise<void> {
  await Promise.allSettled([...open].map((browser) => browser.close()));
  open.clear();
}
