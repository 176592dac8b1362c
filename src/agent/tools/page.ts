import { z } from 'zod';
import { invalidArgument } from '../../errors.js';
import { DEFAULT_JPEG_QUALITY, screenshot, type CaptureMode } from '../../operations/read/screenshot.js';
import { defineAgentTool } from '../tool-types.js';
import { Ref } from './schemas.js';
import { evaluateScript, MAX_SCRIPT_CHARS } from '../../operations/read/evaluate.js';

export const screenshotTool = defineAgentTool({
  name: 'browser_screenshot',
  description:
    'Capture the current tab as an image: the viewport, the whole scrollable page (fullPage: true) or one element (ref from browser_snapshot); PNG, or JPEG with type: "jpeg" (smaller). Use browser_snapshot instead when text or refs are enough.',
  input: z
    .object({
      fullPage: z
        .boolean()
        .optional()
        .describe('Capture the whole scrollable page instead of the viewport (default false).'),
      ref: Ref.optional().describe('Capture only this element (a ref from browser_snapshot, e.g. "@e5").'),
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
  output: z.object({
    width: z.number(),
    height: z.number(),
    bytes: z.number(),
    mimeType: z.enum(['image/png', 'image/jpeg']),
    data: z.string().describe('Base64 image.'),
    scale: z.number().optional().describe('Set when a full page over the size limits was scaled down.'),
    clipped: z.boolean().optional().describe('True when it was also cut off at the bottom.'),
  }),
  async handler(args, call) {
    if (args.ref !== undefined && args.fullPage === true) {
      throw invalidArgument('fullPage', 'give either fullPage or ref, not both');
    }
    if (args.type === 'png' && args.quality !== undefined) {
      throw invalidArgument('quality', 'applies to JPEG only (type "jpeg")');
    }
    const mode: CaptureMode =
      args.ref !== undefined
        ? { kind: 'element', ref: args.ref }
        : { kind: args.fullPage ? 'fullPage' : 'viewport' };
    const shot = await call.onPage('screenshot', (ctx) =>
      screenshot(
        ctx,
        mode,
        {
          maxDimension: ctx.config.screenshotMaxDimension,
          maxPixels: ctx.config.screenshotMaxPixels,
          maxBytes: ctx.config.screenshotMaxBytes,
        },
        // A quality alone means JPEG (it has no meaning for PNG).
        { type: args.type ?? (args.quality === undefined ? 'png' : 'jpeg'), quality: args.quality },
      ),
    );
    return {
      width: shot.width,
      height: shot.height,
      bytes: shot.bytes,
      mimeType: shot.mimeType,
      data: shot.image.toString('base64'),
      ...(shot.scale !== undefined ? { scale: shot.scale, clipped: shot.clipped === true } : {}),
    };
  },
  toModelContent(output) {
    const format = output.mimeType === 'image/jpeg' ? 'JPEG' : 'PNG';
    return [
      {
        type: 'text',
        text: `Screenshot ${output.width}x${output.height} ${format}${
          output.scale === undefined
            ? ''
            : ` (scaled ×${output.scale}${output.clipped ? ', bottom cut off' : ''})`
        }`,
      },
      { type: 'image', data: output.data, mimeType: output.mimeType },
    ];
  },
});

export const evaluateTool = defineAgentTool({
  name: 'browser_evaluate',
  description:
    'Escape hatch: run JavaScript in the current tab (an expression or statements; a returned promise is awaited). Prefer the other tools. With returnValue the JSON result comes back (bounded to 16 KB).',
  input: z
    .object({
      script: z
        .string()
        .min(1)
        .max(MAX_SCRIPT_CHARS)
        .describe('JavaScript to run in the page, e.g. "document.title".'),
      returnValue: z.boolean().optional().describe('Return the result as JSON (default false: only run it).'),
    })
    .strict(),
  output: z.object({
    value: z.unknown().optional().describe('The JSON value of the result (only with returnValue).'),
    type: z.string().optional().describe('typeof the result (only with returnValue).'),
    truncated: z
      .boolean()
      .optional()
      .describe('True when the JSON was cut to the size limit and value is its text.'),
  }),
  async handler(args, call) {
    return call.onPage('evaluate', (ctx) => evaluateScript(ctx, args.script, args.returnValue ?? false));
  },
});
