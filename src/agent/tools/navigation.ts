import { z } from 'zod';
import { navigate } from '../../operations/navigate/navigation.js';
import { waitForQuiet } from '../../operations/navigate/quiet.js';
import { defineAgentTool } from '../tool-types.js';
import { NavigationOutput, TimeoutInput } from './schemas.js';

/**
 * Seed 000's browser_goto: `networkidle` (load, then no request for 500 ms, in the same queued
 * operation) is no waitUntil of the MCP browser_navigate, so goto is AgentBrowser's own definition;
 * browser_back is a view on the MCP browser_back (src/tools/navigation.ts).
 */
export const gotoTool = defineAgentTool({
  name: 'browser_goto',
  description:
    'Open an http(s) URL (or data:, about:blank) in the current tab. Returns url, title, HTTP status and loadState only; call browser_snapshot to see the page and get element refs.',
  input: z
    .object({
      url: z.string().min(1).max(8192).describe('Absolute http(s) URL, data: URL or about:blank.'),
      waitUntil: z
        .enum(['load', 'domcontentloaded', 'networkidle'])
        .optional()
        .describe(
          'When navigation counts as done. Default: the document is parsed, then load is awaited briefly (never a timeout). load waits strictly; networkidle also waits for 500 ms without network requests.',
        ),
      timeout: TimeoutInput.optional().describe('Navigation deadline in ms (default: the browser timeout).'),
    })
    .strict(),
  output: NavigationOutput,
  async handler(args, call) {
    return call.onPage(
      'goto',
      async (ctx) => {
        const result = await navigate(
          ctx,
          args.url,
          args.waitUntil === 'networkidle' ? 'load' : args.waitUntil,
        );
        // networkidle: no request in flight for 500 ms after load, within the deadline (never a failure).
        if (args.waitUntil === 'networkidle')
          await waitForQuiet(ctx, { maxMs: ctx.deadline.remainingMs(), dom: false });
        return result;
      },
      args.timeout,
    );
  },
});
