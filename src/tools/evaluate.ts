import { z } from 'zod';
import { evaluateScript, MAX_SCRIPT_CHARS } from '../operations/read/evaluate.js';
import { ACTION, agentView, defineTool } from './define.js';
import { pageAddress } from './schemas.js';

/**
 * Page JavaScript, published only with the opt-in `evaluate` profile (`--tools core,evaluate`): the
 * default profiles never let an agent run script in the page (seed 003).
 */
export const evaluateTool = defineTool({
  name: 'browser_evaluate',
  title: 'Evaluate JavaScript',
  description:
    'Run JavaScript in the page (escape hatch, opt-in profile). Returns the JSON value when returnValue is true, cut at 16 KB.',
  profile: 'evaluate',
  input: z
    .object({
      ...pageAddress,
      script: z
        .string()
        .min(1)
        .max(MAX_SCRIPT_CHARS)
        .describe('An expression or IIFE; a returned promise is awaited.'),
      returnValue: z.boolean().optional().describe('Return the result (default true).'),
    })
    .strict(),
  output: z.object({
    value: z.unknown().optional(),
    type: z.string().optional(),
    truncated: z.boolean().optional(),
  }),
  hints: ACTION,
  // AgentBrowser's view: only runs the script unless returnValue is true.
  agent: agentView({
    name: 'browser_evaluate',
    description:
      'Escape hatch: run JavaScript in the current tab (an expression or statements; a returned promise is awaited). Prefer the other tools. With returnValue the JSON result comes back (bounded to 16 KB).',
    input: z
      .object({
        script: z
          .string()
          .min(1)
          .max(MAX_SCRIPT_CHARS)
          .describe('JavaScript to run in the page, e.g. "document.title".'),
        returnValue: z
          .boolean()
          .optional()
          .describe('Return the result as JSON (default false: only run it).'),
      })
      .strict(),
    toArgs: ({ script, returnValue }, at) => ({ ...at, script, returnValue: returnValue ?? false }),
    output: z.object({
      value: z.unknown().optional().describe('The JSON value of the result (only with returnValue).'),
      type: z.string().optional().describe('typeof the result (only with returnValue).'),
      truncated: z
        .boolean()
        .optional()
        .describe('True when the JSON was cut to the size limit and value is its text.'),
    }),
  }),
  async handler(args, { mesh, call }) {
    return mesh.runOnPage(
      args.sessionId,
      args.pageId,
      'evaluate',
      (ctx) => evaluateScript(ctx, args.script, args.returnValue ?? true),
      call,
    );
  },
});
