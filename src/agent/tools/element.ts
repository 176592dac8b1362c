import { z } from 'zod';
import type { ActionResult } from '../../operations/act/action-scope.js';
import { mergeSettled } from '../../operations/act/action-settle.js';
import { fill } from '../../operations/act/forms.js';
import { MAX_TYPE_DELAY_MS, typeText } from '../../operations/act/typing.js';
import { dialogsField, downloadsField, publishDialogs } from '../../tools/action-runner.js';
import { SettledOutput } from '../../tools/action-schemas.js';
import { defineAgentTool } from '../tool-types.js';
import { Ref } from './schemas.js';

/**
 * What an action returns: `url` only when it navigated, and any dialog that was dismissed on the
 * way, in the one-line form every face reports (`alert "Hi" (dismissed)`).
 */
export const ActionOutput = z.object({
  completed: z.literal(true),
  url: z.string().optional().describe('The new URL, when the action navigated.'),
  ...dialogsField,
  settled: SettledOutput.describe(
    'What the action caused and was awaited (only what happened): navigation, requests, mutations, waitedMs; absent when it caused nothing.',
  ),
  ...downloadsField,
});

/**
 * Seed 000's browser_type is AgentBrowser's own definition: `clear` replaces the content first, in
 * the same queued operation, and `text` may be empty (with clear: empty the field); the MCP
 * browser_type (typing at the caret, at least one character) offers neither. Its ref is checked as
 * every face checks one (SeedRef). click, hover, press, select, scroll and drag are views on the MCP
 * definitions (src/tools/interactions*.ts).
 */
export const typeTool = defineAgentTool({
  name: 'browser_type',
  description:
    'Type text into an input by ref, key by key (pages that react to each key see them). clear: true replaces the current content.',
  input: z
    .object({
      ref: Ref,
      text: z.string().max(10_000).describe('Text to type.'),
      clear: z.boolean().optional().describe('Clear the existing content first (default false).'),
      delay: z
        .number()
        .int()
        .min(0)
        .max(MAX_TYPE_DELAY_MS)
        .optional()
        .describe('Pause between keys in ms (default 0).'),
    })
    .strict(),
  output: ActionOutput,
  async handler(args, call) {
    const typed = await call.onPage('type', async (ctx) => {
      const cleared = args.clear ? await fill(ctx, { ref: args.ref }, '', '') : undefined;
      const typed = await typeText(ctx, { ref: args.ref }, '', args.text, args.delay ?? 0);
      return mergeResults(cleared, typed);
    });
    return publishDialogs(typed, 'browser_dialog');
  },
});

/** Two actions run as one: the later URL, and the dialogs of both. */
function mergeResults(first: ActionResult | undefined, second: ActionResult): ActionResult {
  if (!first) return second;
  const dialogs = [...(first.dialogs ?? []), ...(second.dialogs ?? [])];
  const url = second.url ?? first.url;
  const settled = mergeSettled(first.settled, second.settled);
  return {
    completed: true,
    ...(url === undefined ? {} : { url }),
    ...(dialogs.length > 0 ? { dialogs } : {}),
    ...(settled ? { settled } : {}),
  };
}
