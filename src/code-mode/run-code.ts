import { withDeadline, type PageOperationContext } from '../engine/runtime.js';
import type { DialogNote } from '../operations/page-services/dialogs.js';
import { innerContext } from '../operations/act/run-actions.js';
import type { RunnerTable } from './backend-define.js';
import type { CapturedImage } from './backend-shots.js';
import { createEngineBackend } from './engine-backend.js';
import { runScript, type RunScriptOptions, type ScriptResult } from './sandbox.js';

/** The limits a caller may set; the deadline and signal always come from the operation. */
export type CodeLimits = Omit<RunScriptOptions, 'signal' | 'deadline'>;

/** Who runs the script: the HTTP client (owner key) it is shared fairly with; undefined = local. */
export interface CodeRunner {
  client?: string | undefined;
  /** Called as each page call of the script starts (progress reporting). */
  onStep?: ((index: number, op: string) => void) | undefined;
}

export type CodeRunResult = ScriptResult & { dialogs?: DialogNote[]; images?: CapturedImage[] };

/**
 * Runs a code-mode script on the page of `ctx` (inside the queue slot the caller holds: call it from
 * `mesh.runOnPage`), with every facade op's runner (`runners`: browser_run's, joined in
 * src/tools/code-parts.ts). Both faces (the MCP tool and AgentBrowser) call this.
 *
 * The script's deadline ends a little before the operation's, so a script that runs out of time
 * still comes back as a script result (with its logs and step) instead of the queue's bare timeout.
 *
 * @example
 * const result = await mesh.runOnPage(sessionId, pageId, 'run', (ctx) =>
 *   runCode(ctx, runners, "await page.goto(url); return await page.title();"));
 */
export async function runCode(
  ctx: PageOperationContext,
  runners: RunnerTable,
  code: string,
  limits: CodeLimits = {},
  runner: CodeRunner = {},
): Promise<CodeRunResult> {
  const inner = innerContext(ctx);
  const backend = createEngineBackend(inner, runners);
  const claim = { client: runner.client, maxPerClient: ctx.config.sandboxWorkersPerClient };
  const result = await runScript(code, backend, {
    cpuBudgetMs: ctx.config.scriptCpuMs,
    claim,
    ...(runner.onStep ? { onCall: runner.onStep } : {}),
    ...limits,
    signal: inner.signal,
    deadline: inner.deadline.expiresAt,
  });
  // Every call is deadline-bound, so this ends by the operation's deadline at the latest.
  await withDeadline(backend.idle(), ctx.deadline).catch(() => undefined);
  return {
    ...result,
    ...(backend.dialogs.length > 0 ? { dialogs: backend.dialogs } : {}),
    // A failed run returns no images: its error is the result.
    ...(result.ok && backend.images.length > 0 ? { images: backend.images } : {}),
  };
}
