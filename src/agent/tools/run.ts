import { z } from 'zod';
import { newId } from '../../engine/ids.js';
import { isToolOutput } from '../../tools/define.js';
import { runTool as mcpRunTool } from '../../tools/run.js';
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
  output: mcpRunTool.output,
  async handler(args, call) {
    const { timeout, ...run } = args;
    // The tab is the thread's current one when the run is accepted.
    const pageId = await call.onSession(
      'run_target',
      async (ctx, view) => (await view.currentPage(ctx.session)).id,
    );
    const view = await call.view();
    const operationId = newId('op');
    const out = await mcpRunTool
      .handler(
        { ...run, sessionId: view.sessionId, pageId },
        { mesh: view.mesh, services: {}, call: { operationId, timeoutMs: timeout, signal: call.signal } },
      )
      .finally(() => call.collectDownloads(view, operationId));
    return isToolOutput<z.output<typeof mcpRunTool.output>>(out) ? out.structured : out;
  },
  toModelContent(output): ModelContent {
    // Step snapshots follow the JSON as plain text, never JSON-escaped (as the MCP tool sends them).
    const snapshots = (output.results ?? []).filter((result) => result.snapshot !== undefined);
    const lean = { ...output, results: output.results?.map(({ snapshot: _snapshot, ...result }) => result) };
    const text = [
      JSON.stringify(lean),
      ...snapshots.map((result) => `# step ${result.index} snapshot\n${result.snapshot ?? ''}`),
    ];
    return [{ type: 'text', text: text.join('\n') }];
  },
});
