import { z } from 'zod';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import { Deadline } from '../../engine/deadline.js';
import { withDeadline } from '../../engine/runtime.js';
import { click } from '../../operations/act/actions.js';
import { dialogRouterOf } from '../../operations/page-services/dialogs.js';
import { publishDialogs } from '../../tools/action-runner.js';
import { defineAgentTool } from '../tool-types.js';
import { ActionOutput } from './element.js';
import { Ref } from './schemas.js';

/** How long after the click a dialog may take to open (it may follow a fetch), within the deadline. */
const DIALOG_WINDOW_MS = 5000;
/** Time kept back from the call's deadline to answer "no dialog" instead of a timeout. */
const ANSWER_MARGIN_MS = 500;

export const dialogTool = defineAgentTool({
  name: 'browser_dialog',
  description:
    "Click the element (by ref) that opens an alert, confirm or prompt, and handle that dialog: accept or dismiss, with text for a prompt. Returns the dialog's type and message.",
  input: z
    .object({
      triggerRef: Ref.describe('Element whose click opens the dialog.'),
      action: z.enum(['accept', 'dismiss']),
      text: z.string().max(10_000).optional().describe('Text to answer a prompt with (accept only).'),
    })
    .strict(),
  output: ActionOutput.extend({
    dialog: z.object({
      type: z.string(),
      message: z.string(),
      messageTruncated: z.boolean(),
      action: z.enum(['accepted', 'dismissed']),
    }),
  }),
  async handler(args, call) {
    if (args.text !== undefined && args.action === 'dismiss')
      throw invalidArgument('text', 'only applies to action "accept" (the answer to a prompt)');
    const handled = await call.onPage('dialog', async (ctx) => {
      // The expectation is registered before the click, so a dialog opened at once is never missed.
      const expected = dialogRouterOf(ctx.page).expect({
        accept: args.action === 'accept',
        promptText: args.text,
      });
      try {
        const clicked = await click(ctx, { ref: args.triggerRef }, '');
        // Ends before the call's own deadline, so a click that opens nothing is told apart from a
        // timeout even when the click itself took most of the time (a loaded machine).
        const left = ctx.deadline.remainingMs() - ANSWER_MARGIN_MS;
        const window = new Deadline(Math.max(1, Math.min(DIALOG_WINDOW_MS, left)));
        const dialog = await withDeadline(expected.handled, window, ctx.signal).catch((error: unknown) => {
          if (error instanceof BrowserMeshError && error.code === ErrorCodes.OPERATION_TIMEOUT)
            throw noDialog(window.timeoutMs);
          throw error;
        });
        return { ...clicked, dialog };
      } finally {
        expected.cancel();
      }
    });
    return publishDialogs(handled, 'browser_dialog');
  },
});

function noDialog(waitedMs: number): BrowserMeshError {
  // Not retryable as is: the click was done, and doing it again would not change what it opens.
  return new BrowserMeshError(
    ErrorCodes.INVALID_ARGUMENT,
    `triggerRef: the click did not open a dialog within ${waitedMs} ms`,
    {
      details: { field: 'triggerRef', reason: 'no_dialog', waitedMs },
      recoveryHint: 'Check with browser_snapshot which element opens the dialog; the click itself was done.',
    },
  );
}
