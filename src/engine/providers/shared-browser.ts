import type { Browser } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { BrowserLease, BrowserProvider, Placement, ProviderStatus } from './provider.js';

const RELAUNCH_TIMEOUT_MS = 30_000;

/**
 * A provider whose sessions share one browser (each in its own context). The browser is obtained
 * lazily on the first acquire; concurrent acquires share one launch; after a disconnect the next
 * acquire obtains a fresh browser, while sessions on the old one stay failed.
 */
export abstract class SharedBrowserProvider implements BrowserProvider {
  abstract readonly name: string;
  protected abstract readonly ownsProcess: boolean;
  private browser: Browser | undefined;
  private pending: Promise<Browser> | undefined;
  private state: ProviderStatus['state'] = 'idle';
  private closed = false;

  protected abstract obtain(timeoutMs: number): Promise<Browser>;
  protected abstract placement(): Placement;
  /** Ends the browser this provider obtained: kill when it launched it, disconnect otherwise. */
  protected abstract dispose(browser: Browser): Promise<void>;

  async acquire(options: { timeoutMs: number }): Promise<BrowserLease> {
    if (this.closed) throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The runtime is shutting down');
    const browser = this.browser?.isConnected() ? this.browser : await this.connectOnce(options.timeoutMs);
    this.leased.add(browser);
    return { browser, placement: this.placement(), ownsProcess: this.ownsProcess, release: async () => {} };
  }

  warmUp(timeoutMs: number): Promise<void> {
    // Only a browser this provider launches itself: a remote one may be a paid or shared slot.
    if (!this.ownsProcess || this.closed || this.browser?.isConnected()) return Promise.resolve();
    return (this.pending ?? this.connectOnce(timeoutMs)).then(
      () => undefined,
      () => undefined,
    );
  }

  status(): ProviderStatus {
    const connected = this.browser?.isConnected() === true;
    return {
      provider: this.name,
      state: connected ? 'ready' : this.state,
      browserVersion: connected && this.browser ? this.browser.version() : null,
    };
  }

  /**
   * Ends the browser while no session uses it (the shell daemon after its last session closed); the
   * next acquire obtains a new one. Not a crash: nothing is relaunched eagerly.
   */
  async releaseIdle(): Promise<void> {
    const browser = this.browser;
    if (!browser || this.pending) return;
    this.browser = undefined;
    this.leased.delete(browser);
    // Ended on purpose: its 'disconnected' must not report a lost browser (status reads idle at once).
    this.released.add(browser);
    this.state = 'idle';
    await this.dispose(browser).catch(() => undefined);
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    const browser = this.browser ?? (await this.pending?.catch(() => undefined));
    this.browser = undefined;
    if (browser) await this.dispose(browser).catch(() => undefined);
  }

  /**
   * Whether a browser that went away is replaced at once, so the next session does not wait for a
   * launch (crash recovery within about a second). Off by default: only a provider that owns the
   * process and whose runtime outlives crashes (the server) turns it on.
   */
  protected readonly relaunchOnCrash: boolean = false;
  /** Browsers a session was given: only their loss is worth an eager relaunch. */
  private readonly leased = new WeakSet<Browser>();
  /** Browsers ended by releaseIdle: their disconnect is no news. */
  private readonly released = new WeakSet<Browser>();

  /**
   * Starts the replacement as soon as the crash is seen, however soon after the last one: sessions
   * were using the browser, so the next create should find one ready. A browser that dies again
   * before any session used it is not replaced eagerly (a browser that keeps dying on its own would
   * otherwise be relaunched in a loop); the next session then launches one.
   */
  private relaunchAfterCrash(browser: Browser): void {
    if (this.closed || !this.relaunchOnCrash || !this.leased.has(browser)) return;
    this.connectOnce(RELAUNCH_TIMEOUT_MS).catch(() => undefined);
  }

  private connectOnce(timeoutMs: number): Promise<Browser> {
    this.pending ??= (async () => {
      this.state = 'launching';
      try {
        const browser = await this.obtain(timeoutMs);
        browser.on('disconnected', () => {
          if (this.browser === browser) this.browser = undefined;
          if (this.released.has(browser)) return;
          this.state = 'disconnected';
          this.relaunchAfterCrash(browser);
        });
        if (this.closed) {
          await this.dispose(browser).catch(() => undefined);
          throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The runtime is shutting down');
        }
        this.browser = browser;
        this.state = 'ready';
        return browser;
      } catch (error) {
        this.state = 'idle';
        throw error;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }
}
