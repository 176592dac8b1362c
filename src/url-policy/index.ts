import { blockHint } from './block-hints.js';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { defaultPort, UrlPolicy, type BlockReason, type UrlPolicyOptions } from './policy.js';
import type { Browser, BrowserContext } from 'playwright-core';
import type { BlockMemory } from './block-memory.js';
import { guardWebSockets, interceptBrowser } from './request-interceptor.js';
import { PeerGate } from './peer-gate.js';
import { startGuardProxy, type GuardProxy, type GuardStats } from './socks-guard.js';
import { socketCheckTarget } from './worker-gate.js';
import { browserPid } from './browser-pid.js';

export { UrlPolicy, type BlockReason, type Verdict } from './policy.js';
export type { GuardStats } from './socks-guard.js';

/**
 * The guard of a session whose browser runs on another machine: its proxy (given to a Grid browser in
 * its launch flags, to a cdp browser's context as its proxy), and who may use it.
 */
export interface NodeGuardProxy {
  /** `socks5://HOST:PORT` where the remote browsers reach this machine. */
  server: string;
  bypass: string;
  /** The addresses of the machine that runs the session's browser: the only peers let in. */
  admit(addresses: readonly string[]): void;
}

/**
 * The bypass list every guarded context gets, in every mode. Chromium bypasses a proxy implicitly for
 * localhost, 127.0.0.0/8, 169.254.0.0/16 and fe80::/10; `<-loopback>` (alone) removes those rules, so
 * every connection, loopback and link-local included, reaches the guard, which allows loopback itself
 * when the policy lets it through. Any other entry would reopen a direct path.
 */
export const GUARD_BYPASS_LIST = '<-loopback>';

/** How a remote browser is given its session's guard proxy: launch flags (a Grid), or its context (cdp). */
export type GuardDelivery = 'launch' | 'context';
export { socketCheckTarget } from './worker-gate.js';

/** The settings the policy is made from (the configuration's; named here, so this room needs no config). */
export interface UrlPolicySettings extends Omit<UrlPolicyOptions, 'blockPrivate'> {
  blockPrivateNetwork: 'auto' | 'on' | 'off';
  /** Served over HTTP: private ranges are then blocked unless the setting says otherwise. */
  http: boolean;
}

/** The policy the configuration asks for; private ranges are blocked by default only over HTTP. */
export function urlPolicyFromConfig(config: UrlPolicySettings): UrlPolicy {
  const mode = config.blockPrivateNetwork;
  return new UrlPolicy({
    allowedOrigins: config.allowedOrigins,
    blockedOrigins: config.blockedOrigins,
    blockLinkLocal: config.blockLinkLocal,
    blockPrivate: mode === 'on' || (mode === 'auto' && config.http),
    blockedAddresses: config.blockedAddresses,
  });
}

/**
 * One session's share of the policy: the policy itself (for checks before a navigation) and what
 * enforces it on every request. For a locally launched browser that is a guard proxy its context
 * sends every request through; where no such proxy can sit in the path (a remote browser, or an
 * operator proxy in the guard's place) it is the browser's own request interception
 * (see request-interceptor.ts).
 */
export class SessionUrlGuard {
  private interceptor: BlockMemory | undefined;

  private constructor(
    readonly policy: UrlPolicy,
    private readonly proxy: GuardProxy | undefined,
    /** False for a view of a guard another owner closes (sessions sharing a persistent profile). */
    private readonly owned = true,
    /** Set when the guard listens for a browser on another machine rather than for one on this machine. */
    private readonly peers?: PeerGate,
    /** How that remote browser gets the guard: in its launch flags (a Grid's), or as its context's proxy (cdp). */
    private readonly delivery: GuardDelivery = 'launch',
    /** Set when the provider dials the remote browser's connections itself, through this guard. */
    private readonly tunneled = false,
  ) {}

  /**
   * `proxied` = the browser can reach a proxy on this machine's loopback (the local provider).
   * `upstreamProxy` = the operator routes sessions through a proxy of their own: it takes the
   * guard proxy's place, and the request interceptor enforces the policy instead.
   */
  static async open(policy: UrlPolicy, proxied: boolean, upstreamProxy = false): Promise<SessionUrlGuard> {
    const guarded = proxied && policy.active && !upstreamProxy;
    const proxy = guarded ? await startGuardProxy(policy) : undefined;
    return new SessionUrlGuard(policy, proxy);
  }

  /**
   * A guard for a browser on another machine: one listener per session on `host` (this machine as
   * that browser sees it) that admits only the peers the provider names once it knows the browser's
   * machine. A Grid browser gets it through its launch flags; a cdp browser as its context's proxy (the
   * address is an IP literal, so where the browser resolves it does not matter). Request interception
   * stays on as defence in depth.
   */
  static async openForNode(
    policy: UrlPolicy,
    host: string,
    upstreamProxy = false,
    delivery: GuardDelivery = 'launch',
  ): Promise<SessionUrlGuard> {
    if (!policy.active || upstreamProxy) return new SessionUrlGuard(policy, undefined);
    const peers = new PeerGate();
    const proxy = await startGuardProxy(policy, { host, peers });
    return new SessionUrlGuard(policy, proxy, true, peers, delivery);
  }

  /**
   * A guard for a remote browser whose every connection this process dials (a Playwright server's
   * tunnel): it listens on loopback and the provider dials through it, so it is a boundary though the
   * browser is elsewhere. Not a context proxy: the remote browser would dial that itself.
   */
  static async openTunneled(policy: UrlPolicy, upstreamProxy = false): Promise<SessionUrlGuard> {
    if (!policy.active || upstreamProxy) return new SessionUrlGuard(policy, undefined);
    const proxy = await startGuardProxy(policy);
    return new SessionUrlGuard(policy, proxy, true, undefined, 'launch', true);
  }

  /** The loopback guard the provider dials the remote browser's connections through, if tunneled. */
  tunnelProxy(): string | undefined {
    return this.tunneled ? this.proxy?.server : undefined;
  }

  /** The guard of a browser on another machine, or undefined (no guard, or a local one). */
  nodeProxy(): NodeGuardProxy | undefined {
    const { proxy, peers } = this;
    if (!proxy || !peers) return undefined;
    return { server: proxy.server, bypass: GUARD_BYPASS_LIST, admit: (addresses) => peers.admit(addresses) };
  }

  /** What the guard proxy has seen, when there is one. */
  guardStats(): GuardStats | undefined {
    return this.proxy?.stats();
  }

  /**
   * Called once the session's browser is known, before its context exists: without a guard proxy,
   * the browser's requests are intercepted instead. Throws when that cannot be set up (the session
   * is then refused rather than run unguarded).
   */
  async attachBrowser(browser: Browser, ownsProcess: boolean): Promise<void> {
    if (this.proxy && !this.peers && !this.tunneled && ownsProcess) {
      // Named before the context exists and answered by Chromium meanwhile: a connection that comes
      // first waits for the answer, so the context need not.
      this.proxy.admitBrowser(browserPid(browser));
    }
    if ((this.proxy && !this.peers) || !this.policy.active) return;
    this.interceptor = (await interceptBrowser(browser, this.policy, { ownsProcess })).memory;
  }

  /** Called for the new context before its first page: pages' WebSockets, which Fetch does not see. */
  async attachContext(context: BrowserContext): Promise<void> {
    if (this.interceptor) await guardWebSockets(context, this.policy, this.interceptor);
  }

  /** The context options the guard needs: its proxy, or nothing. */
  contextOptions(): { proxy?: { server: string; bypass: string } } {
    const proxy = this.contextProxy();
    return proxy ? { proxy } : {};
  }

  /** The context's proxy option, or undefined when no request needs guarding. */
  contextProxy(): { server: string; bypass: string } | undefined {
    // A Grid browser's proxy is a launch flag: as a context option, Playwright would hand the node an
    // address it resolves on its own side.
    if (!this.proxy || this.tunneled || (this.peers && this.delivery === 'launch')) return undefined;
    return { server: this.proxy.server, bypass: GUARD_BYPASS_LIST };
  }

  /** Why the guard recently refused the host:port of this URL (or of the socket a worker asked about). */
  blockedReason(url: string): BlockReason | undefined {
    if (!this.proxy && !this.interceptor) return undefined;
    try {
      const parsed = new URL(socketCheckTarget(url) ?? url);
      const port = Number(parsed.port) || defaultPort(parsed.protocol);
      return (
        this.interceptor?.blockedReason(parsed.hostname, port) ??
        this.proxy?.blockedReason(parsed.hostname, port)
      );
    } catch {
      return undefined;
    }
  }

  /** Whether refusals are known by target (request interception), for {@link watchDocumentRefusal}. */
  get knowsTargets(): boolean {
    return this.interceptor !== undefined;
  }

  /**
   * Resolves true once a document request of the top-level target `targetId` is (or already was)
   * refused, false after `withinMs`. Only request interception knows targets: behind the guard proxy
   * it resolves false at once (there, Playwright reports the refused request on the page itself).
   */
  watchDocumentRefusal(targetId: string, withinMs: number): Promise<boolean> {
    const memory = this.interceptor;
    if (!memory) return Promise.resolve(false);
    if (memory.documentRefused(targetId)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), withinMs);
      const stop = memory.onDocumentRefused((refused) => refused === targetId && done(true));
      function done(refused: boolean): void {
        clearTimeout(timer);
        stop();
        resolve(refused);
      }
    });
  }

  /** The latest refusal at or after `sinceMs` (a navigation that failed because of it). */
  blockedSince(sinceMs: number): BlockReason | undefined {
    return this.interceptor?.blockedSince(sinceMs) ?? this.proxy?.blockedSince(sinceMs);
  }

  /** Refuses a URL the policy forbids, before the browser is asked to load it. */
  async assertAllowed(url: string, field = 'url'): Promise<void> {
    const verdict = await this.policy.checkUrl(url);
    // Only a guard proxy resolves names on this machine; elsewhere the remote node or the operator's
    // proxy does, and a name this machine cannot resolve is theirs to answer.
    const localDns = this.proxy !== undefined;
    if (verdict.allowed || (!localDns && verdict.reason === 'unresolvable')) return;
    throw navigationBlocked(verdict.reason, field);
  }

  /** The same guard for one more session; closing the view leaves the guard running for the others. */
  borrow(): SessionUrlGuard {
    return new SessionUrlGuard(this.policy, this.proxy, false, this.peers);
  }

  close(): Promise<void> {
    if (!this.owned) return Promise.resolve();
    return this.proxy?.close() ?? Promise.resolve();
  }
}

/** NAVIGATION_BLOCKED with the policy's reason; never the URL (it may carry a token). */
export function navigationBlocked(reason: BlockReason, field?: string): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.NAVIGATION_BLOCKED,
    `The URL policy refused this destination (${reason})`,
    {
      details: { reason, ...(field ? { field } : {}) },
      recoveryHint: blockHint(reason),
    },
  );
}
