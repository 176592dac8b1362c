import { z } from 'zod';
import { invalidArgument } from '../errors.js';
import { visibleTextOfRef } from '../operations/act/ref-actions.js';
import { getTitle, getUrl, visibleText } from '../operations/read/reading.js';
import { visibleTextOfLocator } from '../operations/read/page-text-scope.js';
import { logElementRead, logPageRead, logUrlRead } from '../operations/read/read-log.js';
import type { LocatorSpec } from '../operations/locate/locator-spec.js';
import { defineTool, READ_ONLY } from './define.js';
import { Locator, pageAddress, Ref, TARGET_SHAPE } from './schemas.js';

export const getUrlTool = defineTool({
  name: 'browser_get_url',
  title: 'Get URL',
  description: "The page's current URL.",
  profile: 'core',
  input: z.object(pageAddress).strict(),
  output: z.object({ url: z.string() }),
  hints: READ_ONLY,
  async handler(args, { mesh, call }) {
    // A URL the agent read is what an exported spec checks with toHaveURL.
    const read = (ctx: Parameters<typeof getUrl>[0]) => getUrl(ctx).finally(() => logUrlRead(ctx));
    return mesh.runOnPage(args.sessionId, args.pageId, 'get_url', read, call);
  },
});

export const getTitleTool = defineTool({
  name: 'browser_get_title',
  title: 'Get title',
  description: "The page's current title.",
  profile: 'core',
  input: z.object(pageAddress).strict(),
  output: z.object({ title: z.string() }),
  hints: READ_ONLY,
  async handler(args, { mesh, call }) {
    return mesh.runOnPage(args.sessionId, args.pageId, 'get_title', getTitle, call);
  },
});

export const visibleTextTool = defineTool({
  name: 'browser_visible_text',
  title: 'Visible text',
  description:
    "The page's rendered text, bounded: for reading prose (browser_snapshot finds things to act on).",
  profile: 'core',
  input: z
    .object({
      ...pageAddress,
      maxChars: z
        .number()
        .int()
        .min(1)
        .max(1_000_000)
        .optional()
        .describe('Code points (default: the configured maximum).'),
      scope: z
        .object({ ref: Ref.optional(), locator: Locator.optional() })
        .strict()
        .meta({ shape: TARGET_SHAPE })
        .optional()
        .describe("Only this element's text (a locator with a frame chain reaches into any frame):"),
    })
    .strict(),
  output: z.object({
    text: z.string(),
    chars: z.number(),
    bytes: z.number(),
    originalChars: z.number(),
    originalBytes: z.number(),
    truncated: z.boolean(),
    truncationReason: z.enum(['maxChars', 'maxBytes']).nullable(),
  }),
  hints: READ_ONLY,
  async handler(args, { mesh, call }) {
    const config = mesh.config;
    const maxChars = Math.min(args.maxChars ?? config.visibleTextMaxChars, config.visibleTextMaxChars);
    const result = await mesh.runOnPage(
      args.sessionId,
      args.pageId,
      'visible_text',
      async (ctx) => {
        const limits = { maxChars, maxBytes: config.visibleTextMaxBytes };
        const scope = args.scope;
        if (!scope) return visibleText(ctx, limits).then(async (r) => (await logPageRead(ctx, true), r));
        if (scope.ref !== undefined && scope.locator !== undefined)
          throw invalidArgument('scope', 'give exactly one of ref or locator (got both)');
        const locator = scope.locator as LocatorSpec | undefined;
        const read =
          scope.ref !== undefined
            ? await visibleTextOfRef(ctx, scope.ref, limits)
            : locator !== undefined
              ? await visibleTextOfLocator(ctx, locator, limits)
              : undefined;
        if (!read) throw invalidArgument('scope', 'give exactly one of ref or locator (got neither)');
        // What the agent read is what an exported spec checks (toContainText, toBeVisible).
        await logElementRead(
          ctx,
          scope.ref !== undefined ? { ref: scope.ref } : { locator: locator as LocatorSpec },
          read.text,
        );
        return read;
      },
      call,
    );
    const { text, ...meta } = result;
    return { structured: result, text: `${JSON.stringify(textHeader(meta))}\n${text}` };
  },
});

/**
 * The JSON line above the text: the whole measurement when the text was cut (the model must know it
 * is partial, and by which limit), only its size when it is whole (original = shown, no reason).
 * structuredContent always carries every field.
 */
function textHeader(meta: { chars: number; truncated: boolean }): Record<string, unknown> {
  return meta.truncated ? meta : { chars: meta.chars, truncated: false };
}
