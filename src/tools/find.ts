import { z } from 'zod';
import { find, FIND_LIMITS } from '../operations/read/find.js';
import { firstRefOf, logElementRead } from '../operations/read/read-log.js';
import { defineTool, READ_ONLY } from './define.js';
import { Locator, pageAddress, Ref, TARGET_SHAPE } from './schemas.js';

const L = FIND_LIMITS;

export const findTool = defineTool({
  name: 'browser_find',
  title: 'Find',
  description:
    'Page nodes (all frames) matching text, regex or role(+name), with @eN refs and where they are: cheaper than a snapshot.',
  profile: 'core',
  input: z
    .object({
      ...pageAddress,
      text: z.string().min(1).max(1000).optional().describe('Substring, any case.'),
      regex: z.string().min(1).max(500).optional().describe('/pattern/flags'),
      role: z.string().min(1).max(64).optional().describe('e.g. button'),
      name: z.string().max(1000).optional(),
      maxResults: z
        .number()
        .int()
        .min(1)
        .max(L.maxResults)
        .optional()
        .describe(`Default ${L.defaultMaxResults}.`)
        .meta({ leanOmit: ['minimum', 'maximum'] }),
      cursor: z.string().min(1).max(64).optional().describe('A nextCursor.'),
      scope: z
        .object({ ref: Ref.optional(), locator: Locator.optional() })
        .strict()
        .meta({ shape: TARGET_SHAPE })
        .optional()
        .describe('Only inside this element (any frame):'),
    })
    .strict(),
  output: z.object({
    total: z.number(),
    returned: z.number(),
    from: z.number(),
    truncated: z.boolean(),
    nextCursor: z.string().nullable(),
    url: z.string(),
  }),
  hints: READ_ONLY,
  async handler(args, { mesh, call }) {
    const { sessionId, pageId, ...input } = args;
    const result = await mesh.runOnPage(
      sessionId,
      pageId,
      'find',
      async (ctx) => {
        const found = await find(ctx, input);
        // The first match is what an exported spec checks is visible.
        const ref = found.total > 0 ? firstRefOf(found.text) : undefined;
        if (ref !== undefined) await logElementRead(ctx, { ref });
        return found;
      },
      call,
    );
    const { text: _text, title: _title, ...structured } = result;
    return { structured, text: toText(result) };
  },
});

function toText(result: {
  text: string;
  total: number;
  returned: number;
  from: number;
  nextCursor: string | null;
}): string {
  if (result.total === 0) return 'No matches.';
  const last = result.from + result.returned - 1;
  const head = `${result.total} match${result.total === 1 ? '' : 'es'}${result.returned < result.total ? ` (${result.from}-${last} shown)` : ''}:`;
  const more = result.nextCursor === null ? '' : `\n[more with cursor "${result.nextCursor}"]`;
  return `${head}\n${result.text}${more}`;
}
