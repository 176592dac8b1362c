import { z } from 'zod';
import { screenshot } from '../operations/screenshot.js';
import { defineTool, READ_ONLY } from './define.js';
import { pageAddress } from './schemas.js';

export const screenshotTool = defineTool({
  name: 'browser_screenshot',
  title: 'Screenshot',
  description: 'A PNG of the viewport, the full page or one element (browser_snapshot is cheaper for text).',
  profile: 'core',
  alsoIn: ['code'],
  input: z
    .object({
      ...pageAddress,
      capture: z
        .union([
          z.object({ kind: z.literal('viewport') }).strict(),
          z.object({ kind: z.literal('fullPage') }).strict(),
          z.object({ kind: z.literal('element'), css: z.string().min(1).max(1000) }).strict(),
        ])
        .meta({ shape: '{kind: "viewport"} (default) | {kind: "fullPage"} | {kind: "element", css}' })
        .optional()
        .describe('What to capture:'),
    })
    .strict(),
  output: z.object({
    width: z.number(),
    height: z.number(),
    bytes: z.number(),
    mode: z.string(),
    mimeType: z.literal('image/png'),
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
        screenshot(ctx, args.capture ?? { kind: 'viewport' }, {
          maxDimension: config.screenshotMaxDimension,
          maxPixels: config.screenshotMaxPixels,
          maxBytes: config.screenshotMaxBytes,
        }),
      call,
    );
    return {
      structured: {
        width: shot.width,
        height: shot.height,
        bytes: shot.bytes,
        mode: shot.mode,
        mimeType: 'image/png' as const,
        ...(shot.scale !== undefined ? { scale: shot.scale, clipped: shot.clipped === true } : {}),
      },
      images: [{ data: shot.png.toString('base64'), mimeType: 'image/png' as const }],
    };
  },
});
