import type { Browser } from 'playwright-core';

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

/** Turns "a new session needs a browser" into a browser BrowserMesh can drive. */
export interface BrowserProvider {
  readonly name: string;
  acquire(options: { timeoutMs: number; signal?: AbortSignal }): Promise<BrowserLease>;
  status(): ProviderStatus;
  /**
   * Starts obtaining the browser in the background (a launch the first session then shares), where
   * that is cheap to undo; a failure is left for the first session to report. Optional.
   */
  warmUp?(timeoutMs: number): void;
  /** Releases everything this provider holds; kills only processes it launched. */
  shutdown(): Promise<void>;
}
