import { z } from 'zod';
import { snapshot, SNAPSHOT_LIMITS } from '../../operations/snapshot.js';
import { defineAgentTool } from '../tool-types.js';

export const snapshotTool = defineAgentTool({
  name: 'browser_snapshot',
  description:
    'See the current tab as an accessibility tree, one element per line like "[button @e5] Submit". Use the @e refs with the other tools. interactiveOnly keeps only what can be acted on (cheapest).',
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
    })
    .strict(),
  output: z.object({
    snapshot: z.string().describe('The tree, one element per line.'),
    url: z.string(),
    title: z.string(),
    refCount: z.number(),
    partial: z.boolean().describe('True when the page was larger than the size budget and the tree was cut.'),
  }),
  async handler(args, call) {
    const result = await call.onPage('snapshot', (ctx) =>
      snapshot(ctx, { interactiveOnly: args.interactiveOnly, maxDepth: args.maxDepth }),
    );
    return {
      snapshot: result.snapshot,
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
