import { z } from 'zod';
import { replaySpec, type ReplayResult } from '../operations/replay/replay.js';
import { ACTION, agentView, defineTool, type ToolOutput } from './define.js';
import type { CodeTable } from './code-parts.js';
import { pageAddress } from './schemas.js';

/** Characters of a spec a replay takes (an exported spec of a long session fits). */
const MAX_SPEC_CHARS = 200_000;

const Spec = z
  .string()
  .min(1)
  .max(MAX_SPEC_CHARS)
  .describe("An exported spec (browser_export_test); secrets as secretFromEnv('NAME'), never values.");
const Heal = z.boolean().optional().describe('Re-locate a locator that finds none or several. Default true.');
const TimeoutMs = z.number().int().min(1).max(600_000).optional().describe('For the whole replay.');

const ReplayOutput = z.object({
  passed: z.boolean(),
  steps: z.number(),
  total: z.number(),
  heals: z.array(z.object({ step: z.number(), from: z.string(), to: z.string() })),
  failedAt: z
    .object({
      step: z.number(),
      line: z.number(),
      statement: z.string(),
      error: z.object({ code: z.string(), message: z.string() }),
      locator: z.string().optional(),
      candidates: z.array(z.string()).optional(),
    })
    .optional(),
  spec: z.string(),
});

/**
 * browser_replay over the code-mode runners of `table` (built in src/tools/index.ts, like
 * browser_run, since the runners are the other definitions' code parts).
 */
export const replayToolFor = ({ runners }: CodeTable) =>
  defineTool({
    name: 'browser_replay',
    title: 'Replay a spec',
    description:
      'Run an exported spec again on this session without the model: its steps and expects in the sandbox; a locator that finds none or several is healed from the page when one element fits. Returns passed, heals, failedAt and the healed spec.',
    profile: 'code',
    input: z.object({ ...pageAddress, spec: Spec, heal: Heal, timeoutMs: TimeoutMs }).strict(),
    output: ReplayOutput,
    hints: ACTION,
    agent: agentView({
      name: 'browser_replay',
      description:
        'Replay an exported Playwright spec on this tab with no model; heals moved locators. Returns passed, heals, failedAt and the healed spec.',
      input: z.object({ spec: Spec, heal: Heal, timeoutMs: TimeoutMs }).strict(),
      toArgs: (args, at) => ({ ...at, ...args }),
    }),
    async handler(args, { mesh, call }): Promise<ToolOutput<ReplayResult>> {
      const { sessionId, pageId, spec, heal, timeoutMs } = args;
      const result = await mesh.runOnPage(
        sessionId,
        pageId,
        'replay',
        (ctx) => replaySpec(ctx, runners, { spec, heal }, { client: call.owner }),
        timeoutMs === undefined ? call : { ...call, timeoutMs },
      );
      return { structured: result, text: summary(result) };
    },
  });

/** One line for the model, then the healed spec when something healed (the thing to save). */
function summary(result: ReplayResult): string {
  const heals = result.heals.map((h) => `\n  step ${h.step}: ${h.from} -> ${h.to}`).join('');
  const head = result.passed
    ? `passed: ${result.steps} steps, ${result.heals.length} heal${result.heals.length === 1 ? '' : 's'}${heals}`
    : `failed at step ${result.failedAt?.step} (line ${result.failedAt?.line}): ${result.failedAt?.error.code}: ${result.failedAt?.error.message}${
        result.failedAt?.candidates ? `\n  candidates: ${JSON.stringify(result.failedAt.candidates)}` : ''
      }${heals}`;
  return result.heals.length > 0 ? `${head}\n\n${result.spec}` : head;
}
