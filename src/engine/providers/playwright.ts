import type { Browser, BrowserContext } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { newId } from '../ids.js';
import { safeEndpoint, SESSION_PLACEHOLDER } from './cdp.js';
import {
  closeAll,
  perSessionStatus,
  type CdpEndpointMinter,
  type MintedCdpEndpoint,
} from './cdp-per-session.js';
import { loadChromium } from './playwright-loader.js';
import { PlaywrightTunnel, type DialStats } from './playwright-tunnel.js';
import { openUpstream, unreachable } from './playwright-upstream.js';
import type { AcquireOptions, BrowserLease, BrowserProvider, ProviderStatus } from './provider.js';

/** A fresh endpoint for one session, and optionally what gives the remote slot back on close. */
export type PlaywrightEndpointMinter = CdpEndpointMinter;

export interface PlaywrightProviderOptions {
  /** `ws(s)://host:port/path` of a Playwright browser server; `{session}` mints one per session. */
  endpoint: string;
  /** Sent on the WebSocket upgrade (a token); never logged. */
  headers?: Record<string, string>;
  /**
   * `required` (default): every connection of the remote browser is dialed here through the
   * session's guard, and an endpoint that does not tunnel is refused; `off`: the operator opted out,
   * the remote browser dials on its own and the URL policy is request interception only.
   */
  tunnel?: 'required' | 'off';
}

/** Each connected browser's dial point, for what it has dialed and refused. */
const DIAL_POINTS = new WeakMap<Browser, PlaywrightTunnel>();

/** What the dial point of a playwright-provider browser has seen, or undefined for any other browser. */
export function dialStatsOf(browser: Browser): DialStats | undefined {
  const stats = DIAL_POINTS.get(browser)?.stats;
  return stats ? { ...stats } : undefined;
}

/** How long the tunnel probe may take, at most, within the call's own deadline. */
const PROBE_MS = 15_000;

/**
 * Removes WebRTC from every page of a remote context: its UDP is not tunneled, so a peer connection
 * would leave from the remote machine, outside the URL policy (docs/scale.md, "WebRTC").
 */
const NO_WEBRTC = `(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCRtpSender', 'RTCRtpReceiver']) {
    try { Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false }); } catch {}
  }
})();`;

/**
 * Sessions on Playwright browser servers (`playwright run-server`, Browserless, Moon, Azure Playwright
 * Workspaces): one connection, and so one remote browser, per session. The connection goes through a
 * {@link PlaywrightTunnel}, so the remote browser's network is this machine's, behind the session's
 * guard; downloads and saved states travel over the same connection.
 */
export class PlaywrightProvider implements BrowserProvider {
  readonly name = 'playwright';
  readonly tunnelsGuard: boolean;
  private readonly open = new Set<Browser>();
  private lastEndpoint: string | undefined;
  private closed = false;

  constructor(
    private readonly options: PlaywrightProviderOptions,
    private readonly mint: PlaywrightEndpointMinter = templateMinter(options.endpoint),
  ) {
    this.tunnelsGuard = options.tunnel !== 'off';
  }

  async acquire(options: AcquireOptions): Promise<BrowserLease> {
    if (this.closed) throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The runtime is shutting down');
    const { endpoint, release: releaseSlot } = await this.mintEndpoint();
    const giveBack = async (): Promise<void> => {
      await Promise.resolve(releaseSlot?.()).catch(() => undefined);
    };
    let tunnel: PlaywrightTunnel | undefined;
    let browser: Browser | undefined;
    try {
      const upstream = await openUpstream(endpoint, this.options.headers ?? {}, options.timeoutMs, {
        tunnel: this.tunnelsGuard,
      });
      tunnel = await PlaywrightTunnel.open(upstream, options.tunnelProxy);
      browser = await (
        await loadChromium()
      )
        .connect(tunnel.pipePath, { timeout: options.timeoutMs })
        .catch((error: unknown) => {
          throw connectFailed(endpoint, error);
        });
      if (this.tunnelsGuard) await probeTunnel(browser, tunnel, endpoint, options.timeoutMs);
    } catch (error) {
      await browser?.close().catch(() => undefined);
      await tunnel?.close();
      await giveBack();
      throw error;
    }
    const connected = browser;
    const opened = tunnel;
    this.open.add(connected);
    DIAL_POINTS.set(connected, opened);
    connected.once('disconnected', () => {
      this.open.delete(connected);
      void opened.close();
    });
    return {
      browser: connected,
      placement: { provider: 'playwright', node: safeEndpoint(endpoint) },
      ownsProcess: false,
      prepareContext: async (context: BrowserContext) => {
        await context.addInitScript({ content: NO_WEBRTC });
      },
      release: async () => {
        this.open.delete(connected);
        // Closing the connection ends the browser the server launched for it.
        await connected.close().catch(() => undefined);
        await opened.close();
        await giveBack();
      },
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
    let minted: Awaited<ReturnType<PlaywrightEndpointMinter>>;
    try {
      minted = await this.mint();
    } catch {
      throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The Playwright endpoint function failed', {
        details: { reason: 'playwright_mint_failed' },
      });
    }
    const result = typeof minted === 'string' ? { endpoint: minted } : minted;
    if (typeof result?.endpoint !== 'string' || !/^wss?:\/\/\S+$/.test(result.endpoint)) {
      throw new BrowserMeshError(
        ErrorCodes.BROWSER_ERROR,
        'The Playwright endpoint function returned no ws(s) URL',
        { details: { reason: 'playwright_mint_invalid' } },
      );
    }
    this.lastEndpoint = result.endpoint;
    return result;
  }
}

/** `{session}` in a CLI endpoint becomes a fresh random id for every session. */
function templateMinter(template: string): PlaywrightEndpointMinter {
  return () => template.split(SESSION_PLACEHOLDER).join(newId('s').slice(2));
}

/**
 * Proves the server sends the browser's connections through this process before any page of the
 * session loads: a page in a throwaway context asks for a name only the tunnel answers. A
 * `launchServer()` endpoint (or a server that ignores `x-playwright-proxy`) lets the browser dial on
 * its own, and is refused here.
 */
async function probeTunnel(
  browser: Browser,
  tunnel: PlaywrightTunnel,
  endpoint: string,
  timeoutMs: number,
): Promise<void> {
  if (tunnel.tunnelOffered) {
    const host = `${newId('p').slice(2).toLowerCase()}.probe.browsermesh.invalid`;
    const withinMs = Math.min(PROBE_MS, timeoutMs);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const seen = tunnel.waitForHost(host, withinMs);
      await page.goto(`http://${host}/`, { timeout: withinMs }).catch(() => undefined);
      if (await seen) return;
    } finally {
      await context.close().catch(() => undefined);
    }
  }
  throw new BrowserMeshError(
    ErrorCodes.BROWSER_ERROR,
    `The Playwright server at ${safeEndpoint(endpoint)} does not send its browser's connections through BrowserMesh, so the URL policy could not be enforced`,
    {
      details: { reason: 'tunnel_unsupported' },
      recoveryHint:
        'Use a `playwright run-server` endpoint (a launchServer() endpoint ignores exposeNetwork), or opt out of the boundary with --playwright-tunnel off.',
    },
  );
}

function connectFailed(endpoint: string, error: unknown): BrowserMeshError {
  const message = error instanceof Error ? error.message : '';
  if (/quota|too many|busy|limit/i.test(message)) {
    return new BrowserMeshError(
      ErrorCodes.BROWSER_ERROR,
      `The Playwright server at ${safeEndpoint(endpoint)} is busy`,
      {
        details: { reason: 'pool_busy' },
        recoveryHint: 'Retry later, or raise the pool size or quota.',
      },
    );
  }
  return unreachable(endpoint);
}
