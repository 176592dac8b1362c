import type { PageOperationContext } from '../engine/runtime.js';
import { screenshot } from '../operations/read/screenshot.js';
import type { FacadeCall, FacadeResults } from './facade-parse.js';
import { toTargetSpec } from './selector-target.js';

/** An image a script captured, kept host-side for the run's result. */
export interface CapturedImage {
  data: string;
  mimeType: 'image/png' | 'image/jpeg';
}

/** Receives a captured image; returns its 1-based position in the run's result, or throws when the run has enough. */
export type KeepImage = (image: CapturedImage) => number;

/**
 * A script's screenshot: the same operation as browser_screenshot (limits, scaling, JPEG), the
 * element found as every other facade call finds it. The image never enters the sandbox (it would
 * cost the script's memory and the model's tokens as base64); the script gets its description.
 */
export async function takeScreenshot(
  ctx: PageOperationContext,
  call: Extract<FacadeCall, { op: 'screenshot' }>,
  keep: KeepImage,
): Promise<FacadeResults['screenshot']> {
  const mode =
    call.target !== undefined
      ? { kind: 'element' as const, ...toTargetSpec(call.target) }
      : { kind: call.fullPage === true ? ('fullPage' as const) : ('viewport' as const) };
  const shot = await screenshot(
    ctx,
    mode,
    {
      maxDimension: ctx.config.screenshotMaxDimension,
      maxPixels: ctx.config.screenshotMaxPixels,
      maxBytes: ctx.config.screenshotMaxBytes,
    },
    call.format,
  );
  const image = keep({ data: shot.image.toString('base64'), mimeType: shot.mimeType });
  return {
    image,
    width: shot.width,
    height: shot.height,
    bytes: shot.bytes,
    mimeType: shot.mimeType,
    ...(shot.scale !== undefined ? { scale: shot.scale, clipped: shot.clipped === true } : {}),
  };
}
