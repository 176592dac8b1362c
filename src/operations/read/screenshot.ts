import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { imageSize, type ImageType } from './image-size.js';
import { measureElement, type Area, type ElementArea, type ElementCapture } from './screenshot-element.js';

export type { ImageType } from './image-size.js';

export type CaptureMode =
  { kind: 'viewport' } | { kind: 'fullPage' } | ({ kind: 'element' } & ElementCapture);

/** PNG (default, lossless) or JPEG with a quality of 1-100 (default 80): far smaller for photos and long pages. */
export interface ImageFormat {
  type: ImageType;
  quality?: number | undefined;
}

export const DEFAULT_JPEG_QUALITY = 80;

export interface ScreenshotLimits {
  maxDimension: number;
  maxPixels: number;
  maxBytes: number;
}

export interface ScreenshotResult {
  /** The encoded image (PNG or JPEG, as `mimeType` says). */
  image: Buffer;
  mimeType: 'image/png' | 'image/jpeg';
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

/**
 * Measures the area in CSS pixels first and refuses it when over the limits, then captures exactly
 * that fixed area (so a page that grows meanwhile cannot enlarge the image), then checks the real
 * image's dimensions and size. A full page over the limits is scaled down instead (never an error).
 */
export async function screenshot(
  ctx: PageOperationContext,
  mode: CaptureMode,
  limits: ScreenshotLimits,
  format: ImageFormat = { type: 'png' },
): Promise<ScreenshotResult> {
  if (format.type === 'png' && format.quality !== undefined) {
    throw invalidArgument('format.quality', 'applies to JPEG only (type "jpeg")');
  }
  const page = ctx.page.page;
  const area = await measure(ctx, mode);
  if (mode.kind === 'fullPage' && !fits(area, limits)) return scaledFullPage(ctx, area, limits, format);
  checkArea(area, limits);
  const image = await page.screenshot({
    ...encoding(format),
    timeout: ctx.deadline.stepTimeoutMs(),
    ...clipOf(mode, area),
  });
  const { width, height } = imageSize(image, format.type);
  checkBytes(image, limits);
  // The image is in device pixels: allow for the session's deviceScaleFactor, nothing more.
  const scale = await page.evaluate(() => devicePixelRatio).catch(() => 1);
  checkArea({ x: 0, y: 0, width: width / scale, height: height / scale }, limits);
  return { image, mimeType: mimeOf(format), width, height, bytes: image.length, mode: mode.kind };
}

/** The viewport as it is; an element inside the viewport clipped there; anything else rendered beyond it. */
function clipOf(mode: CaptureMode, area: ElementArea): { clip?: Area; fullPage?: boolean } {
  if (mode.kind === 'viewport') return {};
  if (area.inViewport) return { clip: area.inViewport };
  return { fullPage: true, clip: area };
}

function encoding(format: ImageFormat): { type: 'png' } | { type: 'jpeg'; quality: number } {
  return format.type === 'png'
    ? { type: 'png' }
    : { type: 'jpeg', quality: format.quality ?? DEFAULT_JPEG_QUALITY };
}

function mimeOf(format: ImageFormat): ScreenshotResult['mimeType'] {
  return format.type === 'png' ? 'image/png' : 'image/jpeg';
}

async function measure(ctx: PageOperationContext, mode: CaptureMode): Promise<ElementArea> {
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
  return measureElement(ctx, mode);
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
  format: ImageFormat,
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
  const encoded = encoding(format);
  const shot = await withDeadline(
    cdp.send('Page.captureScreenshot', {
      format: encoded.type,
      ...(encoded.type === 'jpeg' ? { quality: encoded.quality } : {}),
      clip: { ...clip, scale },
      captureBeyondViewport: true,
    }),
    ctx.deadline,
    ctx.signal,
  );
  const image = Buffer.from(shot.data, 'base64');
  const { width, height } = imageSize(image, format.type);
  checkBytes(image, limits);
  checkArea({ x: 0, y: 0, width: width / dpr, height: height / dpr }, limits);
  return {
    image,
    mimeType: mimeOf(format),
    width,
    height,
    bytes: image.length,
    mode: 'fullPage',
    scale,
    clipped,
  };
}

function checkBytes(image: Buffer, limits: ScreenshotLimits): void {
  if (image.length > limits.maxBytes) {
    throw new BrowserMeshError(
      ErrorCodes.LIMIT_EXCEEDED,
      `The image is ${image.length} bytes, over the ${limits.maxBytes}-byte limit`,
      {
        details: { field: 'maxBytes', limit: limits.maxBytes },
        recoveryHint: 'Capture a JPEG (smaller) or one element.',
      },
    );
  }
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
