import type { ManagedPage } from '../engine/page.js';
import { startPageScreencast, type ScreencastFrame } from '../engine/media/page-screencast.js';

/**
 * Small stills of each session's page for the dashboard's session grid (see every session
 * at a glance, not only the one being watched). A still is taken on request, at most every few
 * seconds per page (viewers share it), from the page's own CDP session: no screencast stays running.
 */

const THUMB_WIDTH = 320;
/** A tall page's still is bounded too (the compositor keeps the aspect ratio within both). */
const THUMB_MAX_HEIGHT = 640;
const QUALITY = 50;
const MAX_AGE_MS = 3000;
/** A page busy loading may not paint at once; the grid shows the previous still rather than wait. */
const CAPTURE_WAIT_MS = 2000;

export interface Thumbnail {
  /** JPEG, base64 (the page shows it as a data: URL; its CSP allows no other image source). */
  data: string;
  timestamp: number;
}

export class Thumbnails {
  private readonly cache = new WeakMap<ManagedPage, { at: number; still: Promise<Thumbnail> }>();

  /**
   * `live`: the newest frame of a page someone watches live. That page's still is its frame, not a
   * capture: a still taken while the page is screencast makes Chromium send a frame of the still's
   * size to the live view (a blurred flash every few seconds), and costs a second capture.
   */
  constructor(
    private readonly live?: (page: ManagedPage) => { data: string; timestamp: number } | undefined,
  ) {}

  of(page: ManagedPage): Promise<Thumbnail> {
    const frame = this.live?.(page);
    if (frame) return Promise.resolve({ data: frame.data, timestamp: frame.timestamp });
    const cached = this.cache.get(page);
    if (cached && Date.now() - cached.at < MAX_AGE_MS) return cached.still;
    const still = withTimeout(capture(page), CAPTURE_WAIT_MS);
    this.cache.set(page, { at: Date.now(), still });
    // A failed capture is not kept: the next request tries again.
    still.catch(() => this.cache.delete(page));
    return still;
  }
}

/**
 * A still is the first frame of a screencast of its own, scaled by the compositor to the thumbnail's
 * width: never `Page.captureScreenshot` with a scale, which sets a device emulation for its duration
 * and, beside another still of the same page, could leave the page at the thumbnail's size
 * (docs/human-in-the-loop.md, "Watching never changes the page").
 */
async function capture(page: ManagedPage): Promise<Thumbnail> {
  let got!: (frame: ScreencastFrame) => void;
  const first = new Promise<ScreencastFrame>((resolve) => (got = resolve));
  const cast = await startPageScreencast(
    page,
    {
      format: 'jpeg',
      quality: QUALITY,
      maxWidth: THUMB_WIDTH,
      maxHeight: THUMB_MAX_HEIGHT,
      everyNthFrame: 1,
    },
    (frame) => got(frame),
  );
  try {
    // Bounded here too, so a page that never paints does not keep its screencast running.
    const frame = await withTimeout(first, CAPTURE_WAIT_MS);
    return { data: frame.data, timestamp: Date.now() };
  } finally {
    await cast.stop();
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('thumbnail: the page did not paint in time')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
