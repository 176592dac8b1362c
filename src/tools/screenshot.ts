import { z } from 'zod';
import { screenshot } from '../operations/read/screenshot.js';
import { defineTool, READ_ONLY } from './define.js';
import { Locator, pageAddress, Ref } from './schemas.js';

// One element variant for css, ref and locator (exactly one, checked at resolve time): fewer bytes
// in every listing than a variant each.
const Capture = z
  .union([
    z.object({ kind: z.literal('viewport') }).strict(),
    z.object({ kind: z.literal('fullPage') }).strict(),
    z
      .object({
        kind: z.literal('element'),
        css: z.string().min(1).max(1000).optional(),
        ref: Ref.optional(),
        locator: Locator.optional(),
      })
      .strict(),
  ])
  .meta({
    shape:
      '{kind: "viewport" (default) | "fullPage"} | {kind: "element"; ref | locator (as in browser_click) | css}',
  })
  .optional();

export const screenshotTool = defineTool({
  name: 'browser_screenshot',
  title: 'Screenshot',
  description: 'PNG/JPEG of the viewport, full page or an element; browser_snapshot is cheaper for text.',
  profile: 'core',
  alsoIn: ['code'],
  input: z
    .object({
      ...pageAddress,
      capture: Capture,
      format: z
        .object({ type: z.enum(['png', 'jpeg']), quality: z.number().int().min(1).max(100).optional() })
        .strict()
        .meta({ shape: '{type: "png"|"jpeg"; quality?: 1-100}' })
        .optional(),
    })
    .strict(),
  output: z.object({
    width: z.number(),
    height: z.number(),
    // The caller chose the mode and format, and the image block carries its bytes and MIME type: in
    // every result and the full listing, not in the lean one.
    bytes: z.number().meta({ leanOmit: true }),
    mode: z.string().meta({ leanOmit: true }),
    mimeType: z.enum(['image/png', 'image/jpeg']).meta({ leanOmit: true }),
    // Only on a full page over the limits (docs): left out of the lean listing.
    scale: z.number().optional().meta({ leanOmit: true }),
    clipped: z.boolean().optional().meta({ leanOmit: true }),
  }),
  hints: READ_ONLY,
  async handler(args, { mesh, call }) {
    const config = mesh.config;
    const shot = await mesh.runOnPage(
      args.sessionId,
      args.pageId,
      'screenshot',
      (ctx) =>
        screenshot(
          ctx,
          args.capture ?? { kind: 'viewport' },
          {
            maxDimension: config.screenshotMaxDimension,
            maxPixels: config.screenshotMaxPixels,
            maxBytes: config.screenshotMaxBytes,
          },
          args.format,
        ),
      call,
    );
    return {
      structured: {
        width: shot.width,
        height: shot.height,
        bytes: shot.bytes,
        mode: shot.mode,
        mimeType: shot.mimeType,
        ...(shot.scale !== undefined ? { scale: shot.scale, clipped: shot.clipped === true } : {}),
      },
      images: [{ data: shot.image.toString('base64'), mimeType: shot.mimeType }],
    };
  },
});
