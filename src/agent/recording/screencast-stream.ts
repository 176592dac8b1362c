import { EventEmitter } from 'node:events';
import type { Frame } from 'playwright-core';
import type { ManagedPage } from '../../engine/page.js';
import type { ThreadView } from '../threads.js';
import {
  startPageScreencast,
  type PageScreencast,
  type ScreencastFrame,
  type ScreencastParams,
} from '../../engine/media/page-screencast.js';

/** Waits before each try to start a tab's screencast (see ScreencastStream.attach). */
const START_BACKOFF_MS = [0, 100, 250, 500, 1000];

export type ScreencastStopReason = 'manual' | 'browser_closed' | 'error';

export interface ScreencastEvents {
  frame: [ScreencastFrame];
  url: [string];
  stop: [ScreencastStopReason];
  error: [Error];
}

/**
 * A thread's live screencast. It follows the thread's current tab: when the thread switches tabs
 * (browser_tabs, or its tab closed), the screencast moves to the new tab and emits its URL. Each
 * stream has its own CDP session, so any number of streams and recordings can run at once.
 *
 * Events: `frame` (ScreencastFrame), `url` (string), `stop` (reason), `error` (Error).
 */
export class ScreencastStream extends EventEmitter<ScreencastEvents> {
  private active = false;
  /** The tab being followed, with its navigation listener; the cast once it started. */
  private followed: { page: ManagedPage; offNav: () => void; cast?: PageScreencast } | undefined;
  /** Attachments run one at a time, in order, so a quick tab switch never leaves two casts running. */
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly view: ThreadView,
    private readonly params: ScreencastParams,
  ) {
    super();
  }

  get threadId(): string {
    return this.view.threadId;
  }

  /** Starts on the thread's current tab. Resolves once frames are requested. */
  async start(): Promise<void> {
    if (this.active) return;
    this.active = true;
    this.unsubscribe = this.view.onTabChange((page) => void this.follow(page));
    await this.follow(this.view.peekCurrentPage());
  }

  isActive(): boolean {
    return this.active;
  }

  /** Restarts the screencast on the thread's current tab. */
  async reconnect(): Promise<void> {
    if (!this.active) return;
    await this.follow(this.view.peekCurrentPage());
  }

  emitUrl(url: string): void {
    this.emit('url', url);
  }

  /** Stops the screencast and frees its CDP session. Idempotent. */
  async stop(reason: ScreencastStopReason = 'manual'): Promise<void> {
    if (!this.active) return;
    this.active = false;
    this.unsubscribe?.();
    this.chain = this.chain.then(() => this.detach());
    await this.chain;
    this.emit('stop', reason);
  }

  private follow(page: ManagedPage | undefined): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (!this.active) return;
      await this.detach();
      if (page && !page.isClosed) await this.attach(page);
    });
    return this.chain;
  }

  /**
   * Chromium can refuse or drop a page's screencast while a navigation swaps it to another renderer
   * process (a fresh tab leaving about:blank), so a start is retried with backoff, and every
   * main-frame navigation of the followed tab starts the cast again (emitting the new URL). The
   * listener is in place before the URL is read: a navigation is in url() or reported by the event.
   */
  private async attach(page: ManagedPage): Promise<void> {
    const onNav = (frame: Frame): void => {
      if (frame === page.page.mainFrame() && this.followed?.page === page) void this.follow(page);
    };
    page.page.on('framenavigated', onNav);
    const followed: NonNullable<typeof this.followed> = {
      page,
      offNav: () => void page.page.off('framenavigated', onNav),
    };
    this.followed = followed;
    let failure: unknown;
    for (const delayMs of START_BACKOFF_MS) {
      if (!this.active || page.isClosed || this.followed !== followed) return;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      try {
        followed.cast = await startPageScreencast(page, this.params, (frame) => this.emit('frame', frame));
        this.emitUrl(page.page.url());
        return;
      } catch (error) {
        failure = error;
      }
    }
    // Still following: the tab's next navigation tries again. A closed tab is not an error.
    if (!page.isClosed && this.listenerCount('error') > 0)
      this.emit('error', failure instanceof Error ? failure : new Error('screencast failed'));
  }

  private async detach(): Promise<void> {
    const followed = this.followed;
    this.followed = undefined;
    if (!followed) return;
    followed.offNav();
    await followed.cast?.stop();
  }
}
