import { z } from 'zod';
import { isToolOutput } from '../../tools/define.js';
import { runTool as mcpRunTool } from '../../tools/index.js';
import { defineAgentTool, type ModelContent } from '../tool-types.js';
import { TimeoutInput } from './schemas.js';

/**
 * Code mode for AgentBrowser: the MCP `browser_run` tool itself (same batch steps, same sandbox,
 * same result shape), aimed at the thread's current tab instead of an explicit session and page.
 */
export const runTool = defineAgentTool({
  name: 'browser_run',
  description: mcpRunTool.description,
  input: mcpRunTool.input
    .omit({ sessionId: true, pageId: true })
    .extend({
      timeout: TimeoutInput.optional().describe(
        'Deadline of the whole run in ms (default: the browser timeout).',
      ),
    })
    .strict(),
  output: mcpRunTool.output.extend({
    images: z
      .array(z.object({ data: z.string(), mimeType: z.enum(['image/png', 'image/jpeg']) }))
      .optional()
      .describe("The script's screenshots (base64), in order; shown to the model as images."),
  }),
  async handler(args, call) {
    const { timeout, ...run } = args;
    // The tab is the thread's current one when the run is accepted.
    const pageId = await call.onSession(
      'run_target',
      async (ctx, view) => (await view.currentPage(ctx.session)).id,
    );
    const view = await call.view();
    const out = await mcpRunTool.handler(
      { ...run, sessionId: view.sessionId, pageId },
      {
        mesh: view.mesh,
        services: {},
        call: { operationId: call.operationId, timeoutMs: timeout, signal: call.signal },
        threadId: call.threadId,
      },
    );
    if (!isToolOutput<z.output<typeof mcpRunTool.output>>(out)) return out;
    return out.images && out.images.length > 0 ? { ...out.structured, images: out.images } : out.structured;
  },
  toModelContent(output): ModelContent {
    // Step snapshots follow the JSON as plain text, never JSON-escaped (as the MCP tool sends them).
    // Screenshots follow as images, never as base64 in the text.
    const { images, ...rest } = output;
    const snapshots = (rest.results ?? []).filter((result) => result.snapshot !== undefined);
    const lean = { ...rest, results: rest.results?.map(({ snapshot: _snapshot, ...result }) => result) };
    const text = [
      JSON.stringify(lean),
      ...snapshots.map((result) => `# step ${result.index} snapshot\n${result.snapshot ?? ''}`),
    ];
    return [
      { type: 'text', text: text.join('\n') },
      ...(images ?? []).map((image) => ({ type: 'image' as const, ...image })),
    ];
  },
});
