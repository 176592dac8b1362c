import { z } from 'zod';
import type { PageOperationContext } from '../engine/runtime.js';
import {
  formatDialogNote,
  type DialogAnswerTool,
  type DialogNote,
} from '../operations/page-services/dialogs.js';
import { snapshot } from '../operations/read/snapshot.js';
import type { SnapshotResult } from '../snapshot/result.js';
import type { ToolContext, ToolOutput } from './define.js';
import { textView } from './invoke.js';

/** The optional same-call snapshot every interaction offers. */
export const includeSnapshotField = {
  includeSnapshot: z
    .boolean()
    .optional()
    .describe('Also return the interactive snapshot.')
    // The name says it; the lean listing publishes it bare in fourteen tools (--full-schemas keeps it).
    .meta({ leanOmit: ['description'] }),
};

export const snapshotOutputFields = {
  snapshot: z.string().optional().describe('With includeSnapshot.'),
  snapshotPartial: z.boolean().optional().describe('It was cut by its budget.'),
  snapshotCapture: z
    .object({
      mode: z.literal('incremental'),
      reusedNodes: z.number(),
      nodes: z.number(),
      sentNodes: z.number(),
    })
    .optional()
    .describe('The snapshot reused the last one outside what changed (same lines as a full capture).')
    // Structured content only (docs/snapshots.md, "Incremental capture"): not in the text, not in the
    // lean listing, so an action's tokens stay what they were.
    .meta({ leanOmit: true }),
};

/** Unexpected dialogs as one short line each: they can ride on any result at little cost. */
/** Files the call downloaded (invokeTool fills it in for tools whose output declares it). */
export const downloadsField = {
  downloads: z
    .array(
      z.object({
        downloadId: z.string(),
        name: z.string(),
        bytes: z.number(),
        mimeType: z.string().nullable(),
        state: z.enum(['in_progress', 'completed', 'failed', 'removed']),
        errorCode: z.string().optional(),
      }),
    )
    .optional()
    .describe('Files this call downloaded (browser_files).')
    // Only when a call downloads (docs/files-and-pointer.md): left out of the lean listing.
    .meta({ leanOmit: true }),
};

export const dialogsField = {
  dialogs: z
    .array(z.string())
    .optional()
    .describe('Unexpected dialogs handled since the last result, e.g. alert "Hi" (accepted).'),
};

type Published<R> = Omit<R, 'dialogs'> & {
  dialogs?: string[];
  snapshot?: string;
  snapshotPartial?: boolean;
  snapshotCapture?: SnapshotResult['capture'];
};

/**
 * Replaces the operations' dialog notes with their one-line form (absent when there were none);
 * `answer` is the face's tool for answering a dialog (the lines name it).
 */
export function publishDialogs<R extends { dialogs?: DialogNote[] }>(
  result: R,
  answer?: DialogAnswerTool,
): Omit<R, 'dialogs'> & { dialogs?: string[] } {
  const { dialogs, ...rest } = result;
  return dialogs && dialogs.length > 0
    ? { ...rest, dialogs: dialogs.map((note) => formatDialogNote(note, answer)) }
    : rest;
}

/** AgentBrowser (a call with a thread) answers dialogs with browser_dialog; MCP with action_and_wait. */
export function dialogAnswerOf(tool: Pick<ToolContext, 'threadId'>): DialogAnswerTool {
  return tool.threadId === undefined ? 'browser_action_and_wait' : 'browser_dialog';
}

/**
 * Runs one interaction on the page's queue and, when asked, takes the interactive snapshot in the same
 * queued operation (nothing can run in between). The snapshot text follows the JSON line of the text
 * block as is, never JSON-escaped.
 */
export async function runPageAction<R extends { dialogs?: DialogNote[] }>(
  tool: ToolContext,
  args: { sessionId: string; pageId: string; includeSnapshot?: boolean | undefined },
  op: string,
  act: (ctx: PageOperationContext) => Promise<R>,
): Promise<Published<R> | ToolOutput<Published<R>>> {
  const result = await tool.mesh.runOnPage<Published<R>>(
    args.sessionId,
    args.pageId,
    op,
    async (ctx) => {
      const acted = publishDialogs(await act(ctx), dialogAnswerOf(tool));
      if (!args.includeSnapshot) return acted;
      // Short text lines too: what the action changed often shows as text ("Signed in as …", an alert).
      const taken = await snapshot(ctx, { interactiveOnly: true, textLines: true });
      return {
        ...acted,
        snapshot: taken.snapshot,
        ...(taken.partial ? { snapshotPartial: true } : {}),
        ...(taken.capture ? { snapshotCapture: taken.capture } : {}),
      };
    },
    tool.call,
  );
  if (result.snapshot === undefined) return result;
  // The JSON line, then the snapshot; operationId stays in structuredContent (see invoke.ts textView).
  const { snapshot: text, snapshotCapture: _structuredOnly, ...rest } = result;
  return { structured: result, text: `${JSON.stringify(textView(rest))}\n${text}` };
}
