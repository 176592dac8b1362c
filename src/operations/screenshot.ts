import { BrowserMeshError, ErrorCodes, invalidArgument } from '../errors.js';
import { withDeadline, type PageOperationContext } from '../engine/runtime.js';

export type CaptureMode = { kind: 'viewport' } | { kind: 'fullPage' } | { kind: 'element'; css: string };

export interface ScreenshotLimits {
  maxDimension: number;
  maxPixels: number;
  maxBytes: number;
}

export interface ScreenshotResult {
  png: Buffer;
  width: number;
  height: number;
  bytes: number;
  mode: CaptureMode['kind'];
  /** Full page over the limits only: the factor it was scaled down by (CSS px → image px). */
  scale?: number;
  /** Full page only: true when even the smallest scale did not fit, so the bottom was cut off. */
  clipped?: boolean;
}

/** Below this a page is unreadable: it is clipped at the bottom instead of shrunk further. */
const MIN_SCALE = 0.25;

interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Measures the area in CSS pixels first and refuses it when over the limits, then captures exactly
 * that fixed area (so a page that grows meanwhile cannot enlarge the image), then checks the real
 * PNG's dimensions and size.
 */
export async function screenshot(
  ctx: PageOperationContext,
  mode: CaptureMode,
  limits: ScreenshotLimits,
): Promise<ScreenshotResult> {
  const page = ctx.page.page;
  const area = await measure(ctx, mode);
  if (mode.kind === 'fullPage' && !fits(area, limits)) return scaledFullPage(ctx, area, limits);
  checkArea(area, limits);
  const png = await page.screenshot({
    type: 'png',
    timeout: ctx.deadline.stepTimeoutMs(),
    ...(mode.kind === 'viewport' ? {} : { fullPage: true, clip: area }),
  });
  const { width, height } = pngSize(png);
  if (png.length > limits.maxBytes) {
    throw limitError(
      `The PNG is ${png.length} bytes, over the ${limits.maxBytes}-byte limit`,
      'maxBytes',
      limits.maxBytes,
    );
  }
  // The PNG is in device pixels: allow for the session's deviceScaleFactor, nothing more.
  const scale = await page.evaluate(() => devicePixelRatio).catch(() => 1);
  checkArea({ x: 0, y: 0, width: width / scale, height: height / scale }, limits);
  return { png, width, height, bytes: png.length, mode: mode.kind };
}

async function measure(ctx: PageOperationContext, mode: CaptureMode): Promise<Area> {
  const page = ctx.page.page;
  if (mode.kind === 'viewport') {
    const size =
      page.viewportSize() ?? (await page.evaluate(() => ({ width: innerWidth, height: innerHeight })));
    return { x: 0, y: 0, ...size };
  }
  if (mode.kind === 'fullPage') {
    return page.evaluate(() => {
      const root = document.documentElement;
      const body = document.body;
      return {
        x: 0,
        y: 0,
        width: Math.max(root.scrollWidth, body ? body.scrollWidth : 0, innerWidth),
        height: Math.max(root.scrollHeight, body ? body.scrollHeight : 0, innerHeight),
      };
    });
  }
  const locator = page.locator(mode.css);
  const count = await locator.count().catch(() => {
    throw invalidArgument('capture.css', 'is not a valid CSS selector');
  });
  if (count === 0) {
    throw new BrowserMeshError(ErrorCodes.ELEMENT_NOT_FOUND, 'No element matches capture.css', {
      details: { field: 'capture.css' },
    });
  }
  if (count > 1) {
    throw new BrowserMeshError(ErrorCodes.LOCATOR_AMBIGUOUS, `capture.css matches ${count} elements`, {
      details: { field: 'capture.css', count },
    });
  }
  // Page coordinates (scroll offset included), as the full-page clip expects.
  const box = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
  });
  if (box.width < 1 || box.height < 1) {
    throw new BrowserMeshError(ErrorCodes.ELEMENT_NOT_INTERACTABLE, 'The element has no visible area', {
      details: { field: 'capture.css' },
    });
  }
  return {
    x: Math.floor(box.x),
    y: Math.floor(box.y),
    width: Math.ceil(box.width),
    height: Math.ceil(box.height),
  };
}

function fits(area: Area, limits: ScreenshotLimits): boolean {
  return (
    area.width <= limits.maxDimension &&
    area.height <= limits.maxDimension &&
    area.width * area.height <= limits.maxPixels
  );
}

/**
 * A full page over the dimension or pixel limits is scaled down to fit (never a hard error); past
 * MIN_SCALE the bottom is cut off instead, and the result says so. Captured through CDP, whose clip
 * takes a scale (Playwright's screenshot does not).
 */
async function scaledFullPage(
  ctx: PageOperationContext,
  area: Area,
  limits: ScreenshotLimits,
): Promise<ScreenshotResult> {
  const dpr = await ctx.page.page.evaluate(() => devicePixelRatio).catch(() => 1);
  const fit = (a: Area): number =>
    Math.min(
      limits.maxDimension / a.width,
      limits.maxDimension / a.height,
      Math.sqrt(limits.maxPixels / (a.width * a.height)),
    ) / dpr;
  let clip = area;
  let scale = fit(area);
  const clipped = scale < MIN_SCALE;
  if (clipped) {
    scale = Math.min(MIN_SCALE, limits.maxDimension / area.width / dpr);
    const maxHeight =
      Math.min(limits.maxDimension, limits.maxPixels / (area.width * scale * dpr)) / (scale * dpr);
    clip = { ...area, height: Math.floor(maxHeight) };
  }
  // Rounding can push an edge one pixel over: shave a little off the scale.
  scale = Math.floor(scale * 1000) / 1000 - 0.001;
  const cdp = await ctx.page.cdp();
  const shot = await withDeadline(
    cdp.send('Page.captureScreenshot', {
      format: 'png',
      clip: { ...clip, scale },
      captureBeyondViewport: true,
    }),
    ctx.deadline,
    ctx.signal,
  );
  const png = Buffer.from(shot.data, 'base64');
  const { width, height } = pngSize(png);
  if (png.length > limits.maxBytes) {
    throw limitError(
      `The PNG is ${png.length} bytes, over the ${limits.maxBytes}-byte limit`,
      'maxBytes',
      limits.maxBytes,
    );
  }
  checkArea({ x: 0, y: 0, width: width / dpr, height: height / dpr }, limits);
  return { png, width, height, bytes: png.length, mode: 'fullPage', scale: scale, clipped };
}

function checkArea(area: Area, limits: ScreenshotLimits): void {
  if (area.width > limits.maxDimension || area.height > limits.maxDimension) {
    throw limitError(
      `The capture is ${area.width}x${area.height}, over the ${limits.maxDimension}px dimension limit`,
      'maxDimension',
      limits.maxDimension,
    );
  }
  if (area.width * area.height > limits.maxPixels) {
    throw limitError(
      `The capture has ${area.width * area.height} pixels, over the ${limits.maxPixels} limit`,
      'maxPixels',
      limits.maxPixels,
    );
  }
}

function limitError(message: string, field: string, limit: number): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.LIMIT_EXCEEDED, message, { details: { field, limit } });
}

/** Width and height from the PNG IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.readUInt32BE(12) !== 0x49484452)
    throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The browser returned an invalid PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
