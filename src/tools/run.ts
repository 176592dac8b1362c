import { z } from 'zod';
import { runCode, type CodeRunResult } from '../code-mode/run-code.js';
import { CODE_MODE_DEFAULTS } from '../code-mode/sandbox.js';
import {
  BrowserMeshError,
  ErrorCodes,
  invalidArgument,
  type ErrorCode,
  type ErrorDetails,
} from '../errors.js';
import {
  formatDialogNote,
  type DialogAnswerTool,
  type DialogNote,
} from '../operations/page-services/dialogs.js';
import { runActions, type ActionsResult } from '../operations/act/run-actions.js';
import { redactText } from '../observability/sanitize.js';
import { stripLocations } from '../text.js';
import { ACTION, agentView, defineTool, type ProgressSink, type ToolOutput } from './define.js';
import { dialogAnswerOf, downloadsField } from './action-runner.js';
import { withHumanRequest } from './human-code.js';
import type { CodeTable } from './code-parts.js';
import { MAX_ACTIONS } from './run-steps.js';
import { pageAddress } from './schemas.js';
import { SeedTimeout } from './seed-shapes.js';

/**
 * Code mode over MCP: many browser steps in one model turn. `actions` is a typed batch; `code` is a
 * Playwright-style script run in the QuickJS sandbox. Either way the whole run is ONE queued
 * operation on the page, and only what it returns reaches the model.
 */

// Lean on purpose: every client lists this schema. Step results carry index, action and, where the
// step has something to say, snapshot / selected / title / status / quiet / elapsedMs.
const RunOutput = z.object({
  value: z.unknown().optional(),
  valueTruncated: z.boolean().optional(),
  logs: z.array(z.string()).optional(),
  logsTruncated: z.boolean().optional(),
  operations: z.number().optional(),
  durationMs: z.number().optional(),
  completed: z.number().optional(),
  total: z.number().optional(),
  url: z.string().optional(),
  ...downloadsField,
  results: z.array(z.object({ index: z.number(), action: z.string() }).loose()).optional(),
  failed: z
    .object({
      index: z.number(),
      action: z.string(),
      error: z.object({
        code: z.string(),
        message: z.string(),
        details: z.record(z.string(), z.unknown()).optional(),
        recoveryHint: z.string().optional(),
      }),
    })
    .optional(),
  dialogs: z.array(z.string()).optional(),
});
type RunOutputType = z.infer<typeof RunOutput>;

/**
 * browser_run over the steps and runners of `table` (the tool table's, joined by code-parts.ts:
 * src/tools/index.ts builds it, since its schema lists the other definitions' steps).
 */
export const runToolFor = ({ steps, runners }: CodeTable) => {
  const runFields = {
    code: z
      .string()
      .min(1)
      .max(CODE_MODE_DEFAULTS.maxCodeChars)
      .optional()
      .describe('Async function body; `return` a JSON value. No require/fetch/timers/page JS.'),
    actions: z.array(steps.schema).min(1).max(MAX_ACTIONS).optional(),
  };
  const description =
    'Many steps in one call: `actions` (typed steps) or `code` (async function body with a Playwright-style `page`: goto, getByRole, getByLabel, locator, click, fill, textContent, waitForURL, snapshot(), ref("@e5")). Only what it returns and logs comes back.';
  return defineTool({
    name: 'browser_run',
    title: 'Run steps',
    description,
    profile: 'code',
    input: z.object({ ...pageAddress, ...runFields }).strict(),
    output: RunOutput,
    hints: ACTION,
    // AgentBrowser's view: the thread's current tab when the run is accepted, and a `timeout`.
    agent: agentView({
      name: 'browser_run',
      description,
      input: z
        .object({
          ...runFields,
          timeout: SeedTimeout.optional().describe(
            'Deadline of the whole run in ms (default: the browser timeout).',
          ),
        })
        .strict(),
      toArgs: ({ timeout, ...args }, at) => ({ ...at, ...args, timeoutMs: timeout }),
      output: RunOutput.extend({
        images: z
          .array(z.object({ data: z.string(), mimeType: z.enum(['image/png', 'image/jpeg']) }))
          .optional()
          .describe("The script's screenshots (base64), in order; shown to the model as images."),
      }),
      toModelContent(output) {
        // Step snapshots follow the JSON as plain text, never JSON-escaped (as the MCP tool sends
        // them). Screenshots follow as images, never as base64 in the text.
        const { images, ...rest } = output;
        return [
          { type: 'text', text: stepsText(rest) },
          ...(images ?? []).map((image) => ({ type: 'image' as const, ...image })),
        ];
      },
    }),
    async handler(args, tool): Promise<ToolOutput<RunOutputType>> {
      const { mesh, call, progress } = tool;
      if ((args.code === undefined) === (args.actions === undefined)) {
        const both = args.code !== undefined;
        throw invalidArgument(
          both ? 'actions' : 'code',
          `give exactly one of code or actions (got ${both ? 'both' : 'neither'})`,
        );
      }
      const { sessionId, pageId } = args;
      if (args.actions !== undefined) {
        const prepared = steps.toActionSteps(args.actions);
        return fromActions(
          dialogAnswerOf(tool),
          await mesh.runOnPage(
            sessionId,
            pageId,
            'run_actions',
            (ctx) => runActions(ctx, prepared, onStep(progress, prepared.length)),
            call,
          ),
        );
      }
      const code = args.code ?? '';
      return fromCode(
        dialogAnswerOf(tool),
        await mesh.runOnPage(
          sessionId,
          pageId,
          'run_code',
          (ctx) =>
            runCode(
              ctx,
              withHumanRequest(runners, tool),
              code,
              {},
              { client: call.owner, onStep: onStep(progress) },
            ),
          call,
        ),
      );
    },
  });
};

/** Step progress: "step 2/5: click" for actions, "step 3: goto" for a script's page calls. */
function onStep(
  progress: ProgressSink | undefined,
  total?: number,
): ((index: number, action: string) => void) | undefined {
  if (progress === undefined) return undefined;
  return (index, action) => progress(`step ${index + 1}${total === undefined ? '' : `/${total}`}: ${action}`);
}

function fromActions(answer: DialogAnswerTool, result: ActionsResult): ToolOutput<RunOutputType> {
  const { dialogs, ...rest } = result;
  const structured = { ...rest, ...dialogLines(dialogs, answer) };
  return { structured, text: stepsText(structured) };
}

/** The result as one JSON line, then the step snapshots as they are, never JSON-escaped (half the tokens). */
function stepsText(structured: RunOutputType): string {
  const snapshots = (structured.results ?? []).filter((r) => r.snapshot !== undefined);
  const lean = { ...structured, results: structured.results?.map(({ snapshot: _s, ...r }) => r) };
  const text = [
    JSON.stringify(lean),
    ...snapshots.map((r) => `# step ${r.index} snapshot\n${String(r.snapshot ?? '')}`),
  ];
  return text.join('\n');
}

/** A failed script is an error result; its logs and position ride along in details. */
function fromCode(answer: DialogAnswerTool, result: CodeRunResult): ToolOutput<RunOutputType> {
  const lines = dialogLines(result.dialogs, answer);
  if (!result.ok) throw toScriptError(result);
  const structured: RunOutputType = {
    value: result.value,
    ...(result.valueTruncated ? { valueTruncated: true } : {}),
    logs: result.logs,
    ...(result.logsTruncated ? { logsTruncated: true } : {}),
    operations: result.operations,
    durationMs: result.durationMs,
    ...lines,
  };
  const text = [JSON.stringify(result.value) ?? 'null'];
  if (result.valueTruncated) text.push('(value truncated)');
  if (result.logs.length > 0) text.push('# logs', ...result.logs);
  if (result.logsTruncated) text.push('(more logs dropped)');
  if (lines.dialogs) text.push('# dialogs', ...lines.dialogs);
  // Screenshots the script took follow as image content, never through the JSON value.
  return { structured, text: text.join('\n'), ...(result.images ? { images: result.images } : {}) };
}

const KNOWN_CODES = new Set<string>(Object.values(ErrorCodes));

function toScriptError(result: Extract<CodeRunResult, { ok: false }>): BrowserMeshError {
  const { error } = result;
  const code: ErrorCode =
    error.kind === 'cancelled'
      ? ErrorCodes.OPERATION_CANCELLED
      : error.kind === 'host' && error.hostCode !== undefined && KNOWN_CODES.has(error.hostCode)
        ? (error.hostCode as ErrorCode)
        : ErrorCodes.SCRIPT_ERROR;
  // The failed call's own details first (as MCP reports them), then where the script stood.
  const details: ErrorDetails = {
    ...error.hostDetails,
    kind: error.kind,
    operations: result.operations,
  };
  if (error.line !== undefined) details.line = error.line;
  if (error.column !== undefined) details.column = error.column;
  if (error.step !== undefined) {
    details.stepIndex = error.step.index;
    details.stepOp = error.step.op;
  }
  if (error.hostCode !== undefined) details.hostCode = error.hostCode;
  if (result.logs.length > 0) details.logs = result.logs.slice(-20);
  const where =
    error.line !== undefined
      ? ` (line ${error.line}${error.column !== undefined ? `:${error.column}` : ''})`
      : '';
  // The agent's own exception message is what fixes its next call; like browser_evaluate's, it is
  // shown without absolute paths, URLs or secret-looking values.
  return new BrowserMeshError(code, `${redactText(stripLocations(error.message))}${where}`, { details });
}

function dialogLines(dialogs: DialogNote[] | undefined, answer: DialogAnswerTool): { dialogs?: string[] } {
  return dialogs && dialogs.length > 0
    ? { dialogs: dialogs.map((note) => formatDialogNote(note, answer)) }
    : {};
}
