import type { CDPSession } from 'playwright-core';
import type { ManagedPage } from '../page.js';

/** One frame from CDP `Page.screencastFrame`. */
export interface ScreencastFrame {
  /** Base64 image data (JPEG unless PNG was asked for). */
  data: string;
  /** Wall-clock time of the frame, epoch ms. */
  timestamp: number;
  viewport: {
    width: number;
    height: number;
    scrollOffsetX?: number;
    scrollOffsetY?: number;
    pageScaleFactor?: number;
  };
  /** The tab the frame came from. */
  pageId: string;
}

export interface ScreencastParams {
  format: 'jpeg' | 'png';
  quality: number;
  maxWidth: number;
  maxHeight: number;
  everyNthFrame: number;
}

/**
 * A CDP command sent while a navigation swaps the page to another renderer process can go
 * unanswered; every start step is bounded so the caller can retry instead of waiting forever.
 */
const START_TIMEOUT_MS = 2000;
/** How long a start waits for the screencast's own first frame before asking the page for one. */
const FIRST_FRAME_WAIT_MS = 300;

export interface PageScreencast {
  stop(): Promise<void>;
}

/**
 * Screencasts one page over its own CDP session (not the page's shared one), so several consumers
 * (a recording, a live view) can run at once without restarting each other's screencast. Every
 * frame is acknowledged at once: an unacknowledged frame stops Chromium from sending more.
 */
export async function startPageScreencast(
  page: ManagedPage,
  params: ScreencastParams,
  onFrame: (frame: ScreencastFrame) => void,
): Promise<PageScreencast> {
  const cdp: CDPSession = await bounded(page.page.context().newCDPSession(page.page), START_TIMEOUT_MS);
  let stopped = false;
  let framed!: () => void;
  const firstFrame = new Promise<void>((resolve) => (framed = resolve));
  cdp.on('Page.screencastFrame', (event) => {
    cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
    framed();
    if (stopped) return;
    const meta = event.metadata;
    onFrame({
      data: event.data,
      timestamp: meta.timestamp !== undefined ? Math.round(meta.timestamp * 1000) : Date.now(),
      viewport: {
        ...viewportOf(page, { width: meta.deviceWidth, height: meta.deviceHeight }),
        scrollOffsetX: meta.scrollOffsetX,
        scrollOffsetY: meta.scrollOffsetY,
        pageScaleFactor: meta.pageScaleFactor,
      },
      pageId: page.id,
    });
  });
  try {
    const start = cdp.send('Page.startScreencast', {
      format: params.format,
      quality: params.quality,
      maxWidth: params.maxWidth,
      maxHeight: params.maxHeight,
      everyNthFrame: params.everyNthFrame,
    });
    await bounded(start, START_TIMEOUT_MS);
  } catch (error) {
    // A late start must not deliver frames to a caller that gave up on it.
    stopped = true;
    cdp.detach().catch(() => undefined);
    throw error;
  }
  await nudgeFirstFrame(cdp, firstFrame);
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      // The page may already be gone: stopping is best effort, detaching frees the session.
      await cdp.send('Page.stopScreencast').catch(() => undefined);
      await cdp.detach().catch(() => undefined);
    },
  };
}

/**
 * Chromium sends a screencast frame when the page paints; a still page may send none for a while,
 * and its live view would stay blank. If no frame came within a short wait, a still of the page is
 * asked for (and dropped): the compositor produces a frame for it, which the screencast sends at
 * its own size. The still is never clipped or scaled: `Page.captureScreenshot` with `clip` sets a
 * device emulation for its duration and then restores what its own CDP session knew, so two such
 * stills of one page at once (another watcher, a thumbnail, the agent's screenshot) could leave the
 * page at the scaled size (docs/human-in-the-loop.md, "Watching never changes the page"). The start
 * waits a bounded time only.
 */
async function nudgeFirstFrame(cdp: CDPSession, firstFrame: Promise<void>): Promise<void> {
  const came = await bounded(firstFrame, FIRST_FRAME_WAIT_MS).then(
    () => true,
    () => false,
  );
  if (came) return;
  const still = cdp.send('Page.captureScreenshot', { format: 'jpeg', quality: 1 }).catch(() => undefined);
  await bounded(Promise.race([firstFrame, still]), START_TIMEOUT_MS).catch(() => undefined);
}

/**
 * The page's viewport in CSS pixels, the space its mouse input is given in. Not the frame's metadata
 * when the page has one: a still taken with a scale while the page is screencast (the agent's
 * browser_screenshot) makes Chromium send frames whose metadata gives the scaled size.
 */
function viewportOf(page: ManagedPage, measured: { width: number; height: number }) {
  const size = page.page.viewportSize() ?? measured;
  return { width: Math.round(size.width), height: Math.round(size.height) };
}

function bounded<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the screencast did not start in time')), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
