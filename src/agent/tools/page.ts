import { z } from 'zod';
import { screenshot } from '../../operations/screenshot.js';
import { defineAgentTool } from '../tool-types.js';
import { evaluateScript, MAX_SCRIPT_CHARS } from '../../operations/evaluate.js';

export const screenshotTool = defineAgentTool({
  name: 'browser_screenshot',
  description:
    'Capture a PNG of the current tab (the viewport, or the whole scrollable page with fullPage: true), returned as an image. Use browser_snapshot instead when text or refs are enough.',
  input: z
    .object({
      fullPage: z
        .boolean()
        .optional()
        .describe('Capture the whole scrollable page instead of the viewport (default false).'),
    })
    .strict(),
  output: z.object({
    width: z.number(),
    height: z.number(),
    bytes: z.number(),
    mimeType: z.literal('image/png'),
    data: z.string().describe('Base64 PNG.'),
    scale: z.number().optional().describe('Set when a full page over the size limits was scaled down.'),
    clipped: z.boolean().optional().describe('True when it was also cut off at the bottom.'),
  }),
  async handler(args, call) {
    const shot = await call.onPage('screenshot', (ctx) =>
      screenshot(
        ctx,
        { kind: args.fullPage ? 'fullPage' : 'viewport' },
        {
          maxDimension: ctx.config.screenshotMaxDimension,
          maxPixels: ctx.config.screenshotMaxPixels,
          maxBytes: ctx.config.screenshotMaxBytes,
        },
      ),
    );
    return {
      width: shot.width,
      height: shot.height,
      bytes: shot.bytes,
      mimeType: 'image/png' as const,
      data: shot.png.toString('base64'),
      ...(shot.scale !== undefined ? { scale: shot.scale, clipped: shot.clipped === true } : {}),
    };
  },
  toModelContent(output) {
    return [
      {
        type: 'text',
        text: `Screenshot ${output.width}x${output.height} PNG${
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
