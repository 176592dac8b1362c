import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { signalWithTimeout } from '../timeout-signal.js';
import type { Worker } from 'node:worker_threads';
import type { CodeModeBackend } from './backend.js';
import { runInWorker } from './sandbox-run.js';
import { CANCELLED, timeoutError } from './script-session.js';
import type { ScriptError, ScriptResult } from './script-types.js';
import { acquireWorker, prewarmWorker, releaseWorker, type WorkerClaim } from './worker-pool.js';
import type { WorkerLimits } from './worker-protocol.js';

export type { JSONValue, ScriptError, ScriptErrorKind, ScriptResult, ScriptRunInfo } from './script-types.js';
export {
  configureSandboxWorkers,
  sandboxPoolState,
  workerStats,
  workersHeld,
  type SandboxWorkerOptions,
  type WorkerClaim,
} from './worker-pool.js';

/**
 * Code mode: runs an agent's short Playwright-style script in QuickJS (WebAssembly, never Node's
 * `vm`) and turns each `page.*` / locator call into one validated `FacadeCall` on the backend.
 *
 * The script sees only the standard JavaScript built-ins plus `page` and `console`: no `require`,
 * `process`, `fetch`, timers or module loading. Each call gets a fresh QuickJS runtime and context
 * with its own memory and stack limits, disposed on every path, inside a pooled worker thread so a
 * runaway script never blocks this event loop and can always be stopped (see worker-protocol.ts).
 * Backend calls stay on this thread.
 */

export interface RunScriptOptions {
  signal: AbortSignal;
  /** Absolute deadline, epoch ms; covers everything, page calls included. */
  deadline: number;
  /**
   * Script heap limit. Default 32 MiB (clamped to 2-256 MiB). Enforced as the maximum of the
   * worker's WebAssembly memory (this plus 16 MiB of fixed QuickJS overhead), because QuickJS's
   * own limit does not add up allocations in the prebuilt WASM; it is applied to QuickJS too.
   */
  memoryLimitBytes?: number;
  /**
   * QuickJS stack limit. Default 128 KiB (about 700 nested JS calls), clamped to 16-128 KiB:
   * QuickJS's C frames take far more of the worker's native stack than this budget counts, and
   * past ~256 KiB deeply nested source overflows the native stack before QuickJS's own check.
   */
  maxStackBytes?: number;
  /** Page calls per script. Default 500. */
  maxOperations?: number;
  /**
   * Size of the return value's JSON (UTF-8 bytes; for a string value, the string's bytes). Default
   * 16 KiB. Past it the result is still `ok`, with `valueTruncated: true` and `value` replaced by a
   * string: the string cut to fit, or for other values the start of their JSON text.
   */
  maxResultBytes?: number;
  /** console lines kept. Default 100; later lines are dropped and `logsTruncated` is set. */
  maxLogLines?: number;
  /** Chars per console line. Default 1,000; longer lines are cut (ending in '…'). */
  maxLogChars?: number;
  /**
   * CPU budget: how long the script may keep its sandbox thread busy, page calls excluded (the
   * thread's busy time, which bounds its CPU time from above). Default 10 s, clamped to
   * 50 ms-600 s. Past it the script ends with a 'limit' error, far sooner than a long deadline.
   */
  cpuBudgetMs?: number;
  /** Who runs the script, for fair sharing of the sandbox workers (see worker-pool.ts). */
  claim?: WorkerClaim;
  /** Called as each page call starts: its 0-based index and op (progress reporting). */
  onCall?: (index: number, op: string) => void;
}

export const CODE_MODE_DEFAULTS = {
  memoryLimitBytes: 32 * 1024 * 1024,
  maxStackBytes: 128 * 1024,
  maxOperations: 500,
  maxResultBytes: 16 * 1024,
  maxLogLines: 100,
  maxLogChars: 1_000,
  maxCodeChars: 100_000,
  cpuBudgetMs: 10_000,
} as const;

/** Starts a sandbox worker with the default limits in the background, for the first script to reuse. */
export function prewarmSandbox(): void {
  prewarmWorker(CODE_MODE_DEFAULTS.memoryLimitBytes);
}

export async function runScript(
  code: string,
  backend: CodeModeBackend,
  options: RunScriptOptions,
): Promise<ScriptResult> {
  const startedAt = Date.now();
  const limits = resolveLimits(options);
  const early = (error: ScriptError): ScriptResult => ({
    ok: false,
    error,
    logs: [],
    logsTruncated: false,
    operations: 0,
    durationMs: Date.now() - startedAt,
  });
  if (code.length > CODE_MODE_DEFAULTS.maxCodeChars) {
    const message = `The script is too long (${code.length} chars, max ${CODE_MODE_DEFAULTS.maxCodeChars})`;
    return early({ kind: 'limit', message });
  }
  if (options.signal.aborted) return early(CANCELLED);
  // Waiting for a free worker counts against the deadline and can be cancelled.
  const waiting = signalWithTimeout(options.signal, limits.deadline - startedAt);
  let worker: Worker | undefined;
  try {
    worker = await startWorker(waiting.signal, limits.memoryLimitBytes, options.claim);
  } finally {
    waiting.dispose();
  }
  if (worker === undefined)
    return early(options.signal.aborted ? CANCELLED : timeoutError(limits.deadline - startedAt));
  const cpuBudgetMs = clampInt(options.cpuBudgetMs, CODE_MODE_DEFAULTS.cpuBudgetMs, 50, 600_000);
  const run = { signal: options.signal, startedAt, cpuBudgetMs, onCall: options.onCall };
  const end = await runInWorker(worker, code, backend, limits, run);
  releaseWorker(worker, end.worker, end.leak);
  return end.result;
}

async function startWorker(
  signal: AbortSignal,
  memoryLimitBytes: number,
  claim: WorkerClaim | undefined,
): Promise<Worker | undefined> {
  try {
    return await acquireWorker(signal, memoryLimitBytes, claim);
  } catch (error) {
    throw new BrowserMeshError(ErrorCodes.INTERNAL_ERROR, 'The code-mode sandbox could not be started', {
      cause: error,
    });
  }
}

function resolveLimits(options: RunScriptOptions): WorkerLimits {
  const d = CODE_MODE_DEFAULTS;
  const pick = clampInt;
  return {
    deadline: Number.isFinite(options.deadline) ? options.deadline : Date.now(),
    memoryLimitBytes: pick(options.memoryLimitBytes, d.memoryLimitBytes, 2 * 1024 * 1024, 256 * 1024 * 1024),
    maxStackBytes: pick(options.maxStackBytes, d.maxStackBytes, 16 * 1024, 128 * 1024),
    maxOperations: pick(options.maxOperations, d.maxOperations, 1, 10_000),
    maxResultBytes: pick(options.maxResultBytes, d.maxResultBytes, 64, 4 * 1024 * 1024),
    maxLogLines: pick(options.maxLogLines, d.maxLogLines, 0, 10_000),
    maxLogChars: pick(options.maxLogChars, d.maxLogChars, 16, 100_000),
  };
}

function clampInt(value: number | undefined, fallback: number, min: number, max: number): number {
  return value === undefined || !Number.isFinite(value)
    ? fallback
    : Math.min(Math.max(Math.floor(value), min), max);
}
