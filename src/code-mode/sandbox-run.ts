import type { Worker } from 'node:worker_threads';
import { BrowserMeshError, ErrorCodes, toSerializedError, type ErrorDetails } from '../errors.js';
import type { CodeModeBackend } from './backend.js';
import type { FacadeCall } from './facade-parse.js';
import { CANCELLED, CRASHED, timeoutError } from './script-session.js';
import type { ScriptError, ScriptOutcome, ScriptResult } from './script-types.js';
import { CONTROL_CANCELLED, type CallReply, type FromWorker, type WorkerLimits } from './worker-protocol.js';

/**
 * The main-thread half of one script: forwards page calls to the backend, collects console lines,
 * and enforces cancellation and the deadline even if the worker is stuck (QuickJS only polls its
 * interrupt handler every ~10,000 branches): after a short grace period the worker is terminated.
 */

/** How long a worker gets to stop by itself after cancellation or its deadline. */
const GRACE_MS = 250;
/** Largest backend result handed to the sandbox (a snapshot is text; this bounds VM memory use). */
const MAX_REPLY_CHARS = 2 * 1024 * 1024;

export interface RunEnd {
  result: ScriptResult;
  /**
   * What becomes of the worker: 'reuse' it, it was 'killed' (did not stop in time after
   * cancellation or its deadline), or it is 'unhealthy' (its QuickJS module failed or crashed).
   */
  worker: 'reuse' | 'killed' | 'unhealthy';
  leak?: string;
}

/** One run's cancellation, start time and CPU budget (ms of busy sandbox thread). */
export interface RunControl {
  signal: AbortSignal;
  startedAt: number;
  cpuBudgetMs: number;
  onCall?: ((index: number, op: string) => void) | undefined;
}

export function runInWorker(
  worker: Worker,
  code: string,
  backend: CodeModeBackend,
  limits: WorkerLimits,
  { signal, startedAt, cpuBudgetMs, onCall }: RunControl,
): Promise<RunEnd> {
  return new Promise((resolve) => {
    const control = new Int32Array(new SharedArrayBuffer(4));
    // Aborted when the run ends for any reason, so backend calls still running stop too.
    const calls = new AbortController();
    const logs: string[] = [];
    let operations = 0;
    let logsTruncated = false;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    /** Set when the CPU budget ran out: it replaces whatever the interrupted script reports. */
    let overBudget: ScriptOutcome | undefined;
    /** A failed call's details (reason, coveredBy, candidates…), by step: kept here, never sent into the sandbox. */
    const failedDetails = new Map<number, ErrorDetails>();

    const finish = (reported: ScriptOutcome, end: RunEnd['worker'], leak?: string): void => {
      if (settled) return;
      settled = true;
      cleanup();
      calls.abort();
      const outcome = withHostDetails(overBudget ?? reported, failedDetails);
      const result = { ...outcome, logs, logsTruncated, operations, durationMs: Date.now() - startedAt };
      resolve({ result, worker: end, ...(leak === undefined ? {} : { leak }) });
    };
    const kill = (outcome: ScriptOutcome): void => {
      void worker.terminate();
      finish(outcome, 'killed');
    };
    const onMessage = (message: FromWorker): void => {
      if (settled) return;
      if (message.type === 'call') {
        operations = Math.max(operations, message.step + 1);
        onCall?.(message.step, message.call.op);
        void invokeBackend(backend, message.call, message.member, message.step, calls.signal).then(
          ({ details, ...reply }) => {
            if (details) failedDetails.set(message.step, details);
            if (!settled) worker.postMessage({ type: 'reply', id: message.id, ...reply });
          },
        );
      } else if (message.type === 'log') {
        // The worker already bounded the line; this only guards the count.
        if (logs.length < limits.maxLogLines) logs.push(message.line);
        else logsTruncated = true;
      } else if (message.type === 'done') {
        operations = message.operations;
        logsTruncated ||= message.logsTruncated;
        finish(message.outcome, message.reusable ? 'reuse' : 'unhealthy', message.leak);
      }
    };
    const onCrash = (): void =>
      finish({ ok: false, error: { kind: 'limit', message: CRASHED } }, 'unhealthy');
    const onAbort = (): void => {
      Atomics.store(control, 0, CONTROL_CANCELLED);
      worker.postMessage({ type: 'cancel' });
      graceTimer ??= setTimeout(() => kill({ ok: false, error: CANCELLED }), GRACE_MS);
    };
    // The worker's event loop is busy exactly while QuickJS runs (a page call leaves it idle), so
    // its busy time since the start of this run is the script's own compute time.
    const elu = worker.performance.eventLoopUtilization();
    const cpuTimer = setInterval(
      () => {
        if (worker.performance.eventLoopUtilization(elu).active <= cpuBudgetMs) return;
        clearInterval(cpuTimer);
        overBudget = { ok: false, error: cpuBudgetError(cpuBudgetMs) };
        onAbort();
      },
      Math.min(100, Math.max(10, cpuBudgetMs / 4)),
    );
    const budget = limits.deadline - startedAt;
    const deadlineTimer = setTimeout(
      () => kill({ ok: false, error: timeoutError(budget) }),
      Math.min(Math.max(0, limits.deadline - Date.now()) + GRACE_MS, 2 ** 31 - 1),
    );
    const cleanup = (): void => {
      clearTimeout(deadlineTimer);
      clearTimeout(graceTimer);
      clearInterval(cpuTimer);
      signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onCrash);
      worker.off('exit', onCrash);
    };

    worker.on('message', onMessage);
    worker.on('error', onCrash);
    worker.on('exit', onCrash);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ type: 'run', code, limits, startedAt, control: control.buffer });
    if (signal.aborted) onAbort();
  });
}

/** A host error keeps the details of the call that failed, beside the script position. */
function withHostDetails(
  outcome: ScriptOutcome,
  failedDetails: ReadonlyMap<number, ErrorDetails>,
): ScriptOutcome {
  if (outcome.ok || outcome.error.kind !== 'host' || outcome.error.step === undefined) return outcome;
  const details = failedDetails.get(outcome.error.step.index);
  return details ? { ...outcome, error: { ...outcome.error, hostDetails: details } } : outcome;
}

function cpuBudgetError(cpuBudgetMs: number): ScriptError {
  return { kind: 'limit', message: `The script used up its CPU budget (${cpuBudgetMs} ms)` };
}

/**
 * One backend call as the reply the prelude expects. Backend errors keep only their safe parts
 * (code, message, hint): anything that is not a BrowserMeshError becomes INTERNAL_ERROR. Their
 * details stay on the host (`details`), for the run's error.
 */
export async function invokeBackend(
  backend: CodeModeBackend,
  call: FacadeCall,
  member: string,
  step: number,
  signal: AbortSignal,
): Promise<CallReply & { details?: ErrorDetails }> {
  try {
    return { reply: encodeValue(await backend.invoke(call, signal)) };
  } catch (thrown) {
    const error = toSerializedError(thrown);
    const info = { code: error.code, message: `${member}: ${error.message}`, step, op: call.op };
    const reply = JSON.stringify({
      ok: false,
      error: error.recoveryHint ? { ...info, hint: error.recoveryHint } : info,
    });
    return { reply, failedCode: error.code, ...(error.details ? { details: error.details } : {}) };
  }
}

function encodeValue(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify({ ok: true, value: value === undefined ? null : value });
  } catch {
    throw new BrowserMeshError(ErrorCodes.INTERNAL_ERROR, 'the backend returned a value that is not JSON');
  }
  if (json.length > MAX_REPLY_CHARS) {
    throw new BrowserMeshError(
      ErrorCodes.LIMIT_EXCEEDED,
      `the result is larger than ${MAX_REPLY_CHARS} chars`,
    );
  }
  return json;
}
