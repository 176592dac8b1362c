import { z } from 'zod';
import { invalidArgument } from '../../errors.js';
import { waitForQuiet } from '../../operations/quiet.js';
import { waitForCondition } from '../../operations/waits.js';
import { defineAgentTool } from '../tool-types.js';
import { Ref, TimeoutInput } from './schemas.js';

/** Without a ref and without a timeout, the quiet wait gives up after this long (it is not an error). */
export const DEFAULT_QUIET_WAIT_MS = 10_000;

export const waitTool = defineAgentTool({
  name: 'browser_wait',
  description:
    'Wait until the element (ref) is visible, hidden, attached or detached (default visible). Without a ref, wait until the page is quiet (no requests, no DOM changes for 500 ms), at most timeout ms; it returns as soon as the page settles.',
  input: z
    .object({
      ref: Ref.optional().describe('Element to wait for; omit to wait for the page to settle.'),
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
    if (args.ref === undefined) {
      if (args.state !== undefined)
        throw invalidArgument('state', 'needs a ref (without a ref the wait is for the page to settle)');
      const maxMs = args.timeout ?? DEFAULT_QUIET_WAIT_MS;
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
    const state = args.state ?? 'visible';
    return call.onPage(
      'wait',
      async (ctx) => {
        const result = await waitForCondition(ctx, { kind: 'element', target: { ref: args.ref }, state });
        return { waitedMs: result.elapsedMs, state, ...(result.dialogs ? { dialogs: result.dialogs } : {}) };
      },
      args.timeout,
    );
  },
});
