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
  cdp.on('Page.screencastFrame', (event) => {
    cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
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
  await sendFirstFrame(cdp, page, params, (frame) => {
    if (!stopped) onFrame(frame);
  });
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
 * Chromium only sends screencast frames when the page repaints, so a still page would show nothing:
 * one screenshot, scaled to the same bounds, is delivered as the first frame. The start waits for it
 * a bounded time only; a late one (a loaded machine) is still delivered, or a still page would stay
 * blank for good.
 */
async function sendFirstFrame(
  cdp: CDPSession,
  page: ManagedPage,
  params: ScreencastParams,
  deliver: (frame: ScreencastFrame) => void,
): Promise<void> {
  const sent = (async () => {
    const metrics = await cdp.send('Page.getLayoutMetrics');
    const { clientWidth: width, clientHeight: height, pageX, pageY } = metrics.cssVisualViewport;
    const scale = Math.min(1, params.maxWidth / width, params.maxHeight / height);
    const shot = await cdp.send('Page.captureScreenshot', {
      format: params.format,
      ...(params.format === 'jpeg' ? { quality: params.quality } : {}),
      clip: { x: pageX, y: pageY, width, height, scale },
    });
    deliver({
      data: shot.data,
      timestamp: Date.now(),
      viewport: viewportOf(page, { width, height }),
      pageId: page.id,
    });
  })().catch(() => {
    // The page is closing or not painted yet: its screencast frames will follow.
  });
  await bounded(sent, START_TIMEOUT_MS).catch(() => undefined);
}

/**
 * The page's viewport in CSS pixels, the space its mouse input is given in. Not the frame's metadata
 * when the page has one: a still taken with a scale while the page is screencast (the dashboard's
 * first frame, its thumbnails) makes Chromium send frames whose metadata gives the scaled size.
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
