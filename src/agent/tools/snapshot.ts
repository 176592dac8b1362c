import { z } from 'zod';
import { emptyScopeText, snapshot, SNAPSHOT_LIMITS } from '../../operations/read/snapshot.js';
import { defineAgentTool } from '../tool-types.js';
import { Ref } from './schemas.js';

export const snapshotTool = defineAgentTool({
  name: 'browser_snapshot',
  description:
    'See the current tab as an accessibility tree, one element per line like "[button @e5] Submit". Use the @e refs with the other tools. interactiveOnly keeps only what can be acted on (cheapest); ref shows one element\'s subtree.',
  input: z
    .object({
      interactiveOnly: z
        .boolean()
        .optional()
        .describe('Only interactive elements, with their landmarks (default false).'),
      maxDepth: z
        .number()
        .int()
        .min(1)
        .max(SNAPSHOT_LIMITS.maxDepth)
        .optional()
        .describe('Deepest tree level shown (default: all).'),
      ref: Ref.optional().describe(
        "Only this element's subtree (a ref from an earlier snapshot: a list, table, form, dialog…), with working refs.",
      ),
    })
    .strict(),
  output: z.object({
    snapshot: z.string().describe('The tree, one element per line.'),
    url: z.string(),
    title: z.string(),
    refCount: z.number(),
    partial: z.boolean().describe('True when the page was larger than the size budget and the tree was cut.'),
    empty: z
      .literal(true)
      .optional()
      .describe('Only with ref: the element shows nothing; snapshot then says why (never an empty text).'),
  }),
  async handler(args, call) {
    const result = await call.onPage('snapshot', (ctx) =>
      snapshot(ctx, {
        interactiveOnly: args.interactiveOnly,
        maxDepth: args.maxDepth,
        ...(args.ref !== undefined ? { scope: { ref: args.ref } } : {}),
      }),
    );
    const empty = emptyScopeText(result);
    return {
      snapshot: empty ?? result.snapshot,
      ...(empty !== undefined ? { empty: true as const } : {}),
      url: result.url,
      title: result.title,
      refCount: result.refCount,
      partial: result.partial,
    };
  },
  toModelContent(output) {
    // The tree as plain text: JSON would escape every newline and quote of it.
    const cut = output.partial
      ? '\n[cut at the size budget: use interactiveOnly or maxDepth to see the rest]'
      : '';
    return [{ type: 'text', text: `${output.title} — ${output.url}\n${output.snapshot}${cut}` }];
  },
});
