import { z } from 'zod';
import { waitForQuiet } from '../../operations/navigate/quiet.js';
import { waitForCondition } from '../../operations/navigate/waits.js';
import { toWaitCondition } from '../../tools/waits.js';
import { defineAgentTool } from '../tool-types.js';
import { Ref, TimeoutInput } from './schemas.js';

/** Without a ref and without a timeout, the quiet wait gives up after this long (it is not an error). */
export const DEFAULT_QUIET_WAIT_MS = 10_000;

/**
 * Seed 000's browser_wait. Its quiet wait (neither ref nor text) is no condition of the MCP
 * browser_wait, and its result reports dialogs as notes rather than lines, so it is AgentBrowser's
 * own definition; its ref and text waits are checked and run as the MCP browser_wait's
 * (`toWaitCondition`, `waitForCondition`).
 */
export const waitTool = defineAgentTool({
  name: 'browser_wait',
  description:
    'Wait until the element (ref) is visible, hidden, attached or detached (default visible); or until text (one or a list: any of them) shows anywhere on the page, iframes and shadow roots included (present false: until none shows). With neither, wait until the page is quiet (no requests, no DOM changes for 500 ms), at most timeout ms; it returns as soon as the page settles.',
  input: z
    .object({
      ref: Ref.optional().describe('Element to wait for; omit to wait for the page to settle.'),
      text: z
        .union([z.string().min(1).max(1000), z.array(z.string().min(1).max(1000)).min(1).max(10)])
        .optional()
        .describe('Text to wait for (case-sensitive, whitespace-normalized); a list means any of them.'),
      present: z
        .boolean()
        .optional()
        .describe('With text: true (default) to wait until shown, false until gone.'),
      state: z
        .enum(['visible', 'hidden', 'attached', 'detached'])
        .optional()
        .describe('State to wait for (with ref; default visible).'),
      timeout: TimeoutInput.optional().describe(
        'Longest wait in ms (default: the browser timeout with a ref, 10000 without).',
      ),
    })
    .strict(),
  output: z.object({
    waitedMs: z.number(),
    state: z.string().optional().describe('The state reached (with ref).'),
    matched: z.string().optional().describe('With text: the text that was found.'),
    quiet: z
      .boolean()
      .optional()
      .describe('Without ref: true if the page settled, false if it was still busy at the timeout.'),
    dialogs: z
      .array(
        z.object({
          type: z.string(),
          message: z.string(),
          messageTruncated: z.boolean(),
          action: z.string(),
        }),
      )
      .optional(),
  }),
  async handler(args, call) {
    const { timeout, ...given } = args;
    if (Object.values(given).every((value) => value === undefined)) {
      const maxMs = timeout ?? DEFAULT_QUIET_WAIT_MS;
      // The operation deadline gets a little slack beyond maxMs, so a busy page ends as quiet:false, not a timeout.
      return call.onPage(
        'wait',
        async (ctx) => {
          const result = await waitForQuiet(ctx, { maxMs });
          return { waitedMs: result.elapsedMs, quiet: result.quiet };
        },
        maxMs + 2000,
      );
    }
    const condition = toWaitCondition(given);
    return call.onPage(
      'wait',
      async (ctx) => {
        const { elapsedMs, matched, dialogs } = await waitForCondition(ctx, condition);
        return {
          waitedMs: elapsedMs,
          ...(condition.kind === 'element' ? { state: condition.state } : {}),
          ...(matched !== undefined ? { matched } : {}),
          ...(dialogs ? { dialogs } : {}),
        };
      },
      timeout,
    );
  },
});
