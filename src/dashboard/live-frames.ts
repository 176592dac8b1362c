import type { Frame } from 'playwright-core';
import type { ManagedPage } from '../engine/page.js';
import {
  startPageScreencast,
  type PageScreencast,
  type ScreencastFrame,
} from '../engine/media/page-screencast.js';

export type FrameListener = (frame: ScreencastFrame) => void;

export interface LiveFramesOptions {
  /** At most one frame per this many ms reaches a watcher; the newest one wins. */
  minFrameIntervalMs: number;
  maxWidth: number;
  maxHeight: number;
  quality: number;
}

interface Cast {
  page: ManagedPage;
  listeners: Set<FrameListener>;
  screencast: PageScreencast | undefined;
  lastSentMs: number;
  pending: ScreencastFrame | undefined;
  /** The newest frame delivered to the watchers. */
  latest: ScreencastFrame | undefined;
  timer: NodeJS.Timeout | undefined;
  offNav: () => void;
  stopped: boolean;
}

const RETRY_DELAYS_MS = [0, 100, 300, 1000];

/**
 * Screencasts of pages for the dashboard: one CDP screencast per watched page, shared by all its
 * watchers, started with the first watcher and stopped with the last, so nothing is captured while
 * nobody looks. Frames are throttled (newest wins). A cross-process navigation ends Chromium's
 * screencast, so a main-frame navigation starts it again.
 */
export class LiveFrames {
  private readonly casts = new Map<ManagedPage, Cast>();

  constructor(private readonly options: LiveFramesOptions) {}

  /** Starts delivering the page's frames to `listener`; the returned function stops it. */
  watch(page: ManagedPage, listener: FrameListener): () => void {
    let cast = this.casts.get(page);
    if (!cast) {
      cast = this.open(page);
      this.casts.set(page, cast);
    }
    cast.listeners.add(listener);
    const owned = cast;
    return () => {
      owned.listeners.delete(listener);
      if (owned.listeners.size === 0) this.close(owned);
    };
  }

  /** The newest frame of a page being watched; undefined when nobody watches it or none came yet. */
  latest(page: ManagedPage): ScreencastFrame | undefined {
    return this.casts.get(page)?.latest;
  }

  /** Pages being screencast right now (for tests and runtime info). */
  get activeCount(): number {
    return this.casts.size;
  }

  stopAll(): void {
    for (const cast of [...this.casts.values()]) this.close(cast);
  }

  private open(page: ManagedPage): Cast {
    const onNav = (frame: Frame): void => {
      if (frame === page.page.mainFrame()) void this.restart(cast);
    };
    page.page.on('framenavigated', onNav);
    const cast: Cast = {
      page,
      listeners: new Set(),
      screencast: undefined,
      lastSentMs: 0,
      pending: undefined,
      latest: undefined,
      timer: undefined,
      offNav: () => void page.page.off('framenavigated', onNav),
      stopped: false,
    };
    void this.restart(cast);
    return cast;
  }

  private close(cast: Cast): void {
    if (cast.stopped) return;
    cast.stopped = true;
    this.casts.delete(cast.page);
    cast.offNav();
    clearTimeout(cast.timer);
    const screencast = cast.screencast;
    cast.screencast = undefined;
    void screencast?.stop();
  }

  private async restart(cast: Cast): Promise<void> {
    const previous = cast.screencast;
    cast.screencast = undefined;
    await previous?.stop();
    for (const delayMs of RETRY_DELAYS_MS) {
      if (cast.stopped || cast.page.isClosed || cast.screencast) return;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      try {
        const started = await startPageScreencast(
          cast.page,
          { format: 'jpeg', everyNthFrame: 1, ...this.options },
          (frame) => this.offer(cast, frame),
        );
        // Stopped (or restarted by a newer navigation) while starting: this one is not wanted.
        if (cast.stopped || cast.screencast) await started.stop();
        else cast.screencast = started;
        return;
      } catch {
        // Chromium may refuse while the page swaps renderer processes: try again shortly.
      }
    }
  }

  private offer(cast: Cast, frame: ScreencastFrame): void {
    if (cast.stopped) return;
    const waitMs = cast.lastSentMs + this.options.minFrameIntervalMs - Date.now();
    if (waitMs <= 0) return this.deliver(cast, frame);
    cast.pending = frame;
    cast.timer ??= setTimeout(() => {
      cast.timer = undefined;
      const pending = cast.pending;
      cast.pending = undefined;
      if (pending && !cast.stopped) this.deliver(cast, pending);
    }, waitMs);
  }

  private deliver(cast: Cast, frame: ScreencastFrame): void {
    cast.lastSentMs = Date.now();
    cast.latest = frame;
    for (const listener of cast.listeners) {
      try {
        listener(frame);
      } catch {
        // One broken watcher must not stop the others.
      }
    }
  }
}
