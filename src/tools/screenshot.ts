import { z } from 'zod';
import { DEFAULT_JPEG_QUALITY, screenshot } from '../operations/read/screenshot.js';
import { agentView, defineTool, READ_ONLY } from './define.js';
import { Locator, pageAddress, Ref } from './schemas.js';
import { SeedRef } from './seed-shapes.js';

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

const ShotOutput = z.object({
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
});

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
  output: ShotOutput,
  hints: READ_ONLY,
  agent: agentView({
    name: 'browser_screenshot',
    description:
      'Capture the current tab as an image: the viewport, the whole scrollable page (fullPage: true) or one element (ref from browser_snapshot); PNG, or JPEG with type: "jpeg" (smaller). Use browser_snapshot instead when text or refs are enough.',
    input: z
      .object({
        fullPage: z
          .boolean()
          .optional()
          .describe('Capture the whole scrollable page instead of the viewport (default false).'),
        ref: SeedRef.optional().describe(
          'Capture only this element (a ref from browser_snapshot, e.g. "@e5").',
        ),
        type: z.enum(['png', 'jpeg']).optional().describe('Image format (default png).'),
        quality: z
          .number()
          .int()
          .min(1)
          .max(100)
          .optional()
          .describe(`JPEG quality 1-100 (default ${DEFAULT_JPEG_QUALITY}); jpeg only.`),
      })
      .strict(),
    // ref with fullPage becomes a fullPage capture with a ref, which the capture schema refuses; a
    // quality alone means JPEG (it has no meaning for PNG), with PNG the operation refuses it.
    toArgs: ({ fullPage, ref, type, quality }, at) => ({
      ...at,
      capture:
        ref === undefined
          ? { kind: fullPage ? 'fullPage' : 'viewport' }
          : fullPage
            ? { kind: 'fullPage', ref }
            : { kind: 'element', ref },
      format: { type: type ?? (quality === undefined ? 'png' : 'jpeg'), quality },
    }),
    output: z.object({
      width: z.number(),
      height: z.number(),
      bytes: z.number(),
      mimeType: z.enum(['image/png', 'image/jpeg']),
      data: z.string().describe('Base64 image.'),
      scale: z.number().optional().describe('Set when a full page over the size limits was scaled down.'),
      clipped: z.boolean().optional().describe('True when it was also cut off at the bottom.'),
    }),
    toResult: ({ structured, images }) => {
      const { width, height, bytes, mimeType, scale, clipped } = structured as z.output<typeof ShotOutput>;
      return {
        width,
        height,
        bytes,
        mimeType,
        data: images[0]?.data ?? '',
        ...(scale !== undefined ? { scale, clipped: clipped === true } : {}),
      };
    },
    toModelContent(output) {
      const format = output.mimeType === 'image/jpeg' ? 'JPEG' : 'PNG';
      const scaled =
        output.scale === undefined
          ? ''
          : ` (scaled ×${output.scale}${output.clipped ? ', bottom cut off' : ''})`;
      return [
        { type: 'text', text: `Screenshot ${output.width}x${output.height} ${format}${scaled}` },
        { type: 'image', data: output.data, mimeType: output.mimeType },
      ];
    },
  }),
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
