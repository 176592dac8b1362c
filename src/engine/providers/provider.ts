import type { Browser, BrowserContext } from 'playwright-core';
import type { GuardDelivery, NodeGuardProxy, SessionUrlGuard } from '../../url-policy/index.js';

/** Where a session's browser runs; shown to callers, so it never carries credentials. */
export interface Placement {
  provider: string;
  /** A safe description of the node or endpoint (host:port without credentials), if known. */
  node?: string;
}

/**
 * A browser lent to one session. `release` gives it back when the session closes (a no-op for a
 * shared browser; a remote slot is freed). `onDisconnect` fires once if the browser goes away.
 */
export interface BrowserLease {
  browser: Browser;
  placement: Placement;
  /** Whether BrowserMesh started this browser process (only then may it ever kill it). */
  ownsProcess: boolean;
  /**
   * Set when every session shares this one context (a persistent profile, `--user-data-dir`): a
   * session opens its pages in it and closes only those, never the context.
   */
  sharedContext?: BrowserContext;
  /** Called for each new context of this lease before anything else runs in it. Optional. */
  prepareContext?(context: BrowserContext): Promise<void>;
  release(): Promise<void>;
}

export interface ProviderStatus {
  provider: string;
  /** `idle` before the first launch, `ready` while a shared browser is connected. */
  state: 'idle' | 'launching' | 'ready' | 'disconnected';
  browserVersion: string | null;
  /** The remote endpoint (scheme://host:port, never credentials, path or query), for remote providers. */
  endpoint?: string;
}

export interface AcquireOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** The session's guard, for a provider whose browser is on another machine (see guardHost). */
  nodeProxy?: NodeGuardProxy | undefined;
  /**
   * The session's guard proxy on this machine's loopback (`socks5://127.0.0.1:P`), for a provider
   * that dials its remote browser's connections itself (tunnelsGuard): it dials them through it.
   */
  tunnelProxy?: string | undefined;
}

/** Turns "a new session needs a browser" into a browser BrowserMesh can drive. */
export interface BrowserProvider {
  readonly name: string;
  acquire(options: AcquireOptions): Promise<BrowserLease>;
  /**
   * This machine's address as the provider's remote browsers see it, where each session's guard
   * proxy listens (`--guard-host`); unset when no remote browser can reach a guard.
   */
  readonly guardHost?: string;
  /** How its remote browsers get the guard (with guardHost): launch flags (default) or their context. */
  readonly guardDelivery?: GuardDelivery;
  /**
   * The provider's browser runs on this machine (launched here, or a CDP endpoint on loopback), so
   * each session's context can send every connection through a guard proxy on this machine's loopback.
   */
  readonly onThisMachine?: boolean;
  /**
   * Every connection of the provider's remote browsers is dialed by this process (a Playwright
   * server's tunnel): each session's guard listens on loopback and the provider dials through it,
   * rather than the context using it as a proxy.
   */
  readonly tunnelsGuard?: boolean;
  status(): ProviderStatus;
  /**
   * Starts obtaining the browser in the background (a launch the first session then shares), where
   * that is cheap to undo; a failure is left for the first session to report. Optional. Resolves
   * once the browser is there or the attempt ended; never rejects.
   */
  warmUp?(timeoutMs: number): Promise<void>;
  /**
   * Present when sessions share one context (a persistent profile): the URL guard its requests go
   * through, opened once; each session gets a view of it that does not close it.
   */
  sharedUrlGuard?(): Promise<SessionUrlGuard>;
  /** Ends a browser no session uses, keeping the provider usable (the next acquire gets a new one). Optional. */
  releaseIdle?(): Promise<void>;
  /** Releases everything this provider holds; kills only processes it launched. */
  shutdown(): Promise<void>;
}
