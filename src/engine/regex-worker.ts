import { Worker } from 'node:worker_threads';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../errors.js';

/**
 * A caller's regular expression runs here, on a worker thread, never on the event loop: a
 * backtracking pattern (`/^(a+)+$/` on 30 characters takes seconds, each 2 more characters 4 times
 * as long) then stalls only its own call. A job that is not answered within its budget has its
 * worker terminated (that stops V8 mid-match) and fails with OPERATION_TIMEOUT; other jobs run on
 * other workers meanwhile. Idle workers are unref'd, so they never keep the process alive.
 */

export interface RegexPattern {
  source: string;
  flags: string;
}

export interface RegexBudget {
  /** The whole job, waiting for a worker included (the call's deadline). */
  timeoutMs: number;
  /** Matching time once a worker has the job; default the whole budget. */
  runMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** The argument the pattern came from, for the errors. Default `regex`. */
  field?: string | undefined;
}

/** Workers at once; a job beyond them waits (its budget still runs). */
const MAX_WORKERS = 8;
/** Started workers kept for the next job. */
const MAX_IDLE = 2;

// Plain CommonJS, evaluated as the worker's script: no file to locate in sources or in dist/.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const compiled = new Map();
parentPort.on('message', ({ source, flags, texts }) => {
  try {
    const key = flags + '/' + source;
    let regex = compiled.get(key);
    if (!regex) {
      if (compiled.size >= 64) compiled.clear();
      compiled.set(key, (regex = new RegExp(source, flags)));
    }
    const hits = [];
    for (let i = 0; i < texts.length; i++) {
      regex.lastIndex = 0;
      if (regex.test(texts[i])) hits.push(i);
    }
    parentPort.postMessage({ hits });
  } catch {
    parentPort.postMessage({ error: true });
  }
});`;

interface Reply {
  hits?: number[];
  error?: boolean;
}

interface Ready {
  worker: Worker;
  online: Promise<void>;
}

let idle: Ready[] = [];
let started = 0;
const waiting: Array<(ready: Ready) => void> = [];

/** Counters for tests: workers started, jobs matching now, workers stopped because a job ran past its budget. */
export const regexWorkerStats = { started: 0, running: 0, killed: 0 };

/**
 * Compiles `pattern` with `flags` (g and y dropped: they keep state between tests) to check it;
 * compiling runs in time linear in the pattern, only matching can blow up. Starts a worker if none
 * is idle: a caller checks its pattern a while before it matches (a capture, a page's first
 * request), and a worker takes a few hundred milliseconds to start on a loaded machine.
 */
export function toRegexPattern(source: string, flags: string, field: string): RegexPattern {
  const kept = flags.replace(/[gy]/g, '');
  try {
    new RegExp(source, kept);
  } catch {
    throw invalidArgument(field, 'is not a valid regular expression');
  }
  if (idle.length === 0 && started < MAX_WORKERS) release(spawn());
  return { source, flags: kept };
}

/**
 * The indices of `texts` that `pattern` matches, computed on a worker thread within `budget`.
 *
 * @example
 * const hits = await matchOffLoop({ source: '^Ca', flags: 'i' }, ['Cart', 'Home'], { timeoutMs: 500 });
 * // hits: [0]
 */
export async function matchOffLoop(
  pattern: RegexPattern,
  texts: readonly string[],
  budget: RegexBudget,
): Promise<number[]> {
  if (texts.length === 0) return [];
  const expiresAt = Date.now() + budget.timeoutMs;
  const ready = await withBudget(acquire(), expiresAt, budget, (late) => void late.then(release));
  try {
    await withBudget(ready.online, expiresAt, budget);
  } catch (error) {
    stop(ready);
    throw error;
  }
  const runUntil = Math.min(expiresAt, Date.now() + (budget.runMs ?? budget.timeoutMs));
  let onMessage: (reply: Reply) => void = () => undefined;
  let onExit: () => void = () => undefined;
  const answer = new Promise<Reply>((resolve, reject) => {
    onMessage = resolve;
    onExit = () =>
      reject(new BrowserMeshError(ErrorCodes.INTERNAL_ERROR, 'The regular expression worker stopped'));
    ready.worker.once('message', onMessage);
    ready.worker.once('exit', onExit);
  });
  ready.worker.ref();
  ready.worker.postMessage({ source: pattern.source, flags: pattern.flags, texts });
  let reply: Reply;
  regexWorkerStats.running++;
  try {
    reply = await withBudget(answer, runUntil, budget);
  } catch (error) {
    regexWorkerStats.killed++;
    stop(ready);
    throw error;
  } finally {
    regexWorkerStats.running--;
    ready.worker.off('message', onMessage);
    ready.worker.off('exit', onExit);
  }
  release(ready);
  // The pattern compiled on the host; here it failed on the text (V8's backtracking stack ran out).
  if (reply.error === true || reply.hits === undefined)
    throw invalidArgument(budget.field ?? 'regex', 'could not be matched: too complex for the text');
  return reply.hits;
}

function acquire(): Promise<Ready> {
  const free = idle.pop();
  if (free) return Promise.resolve(free);
  if (started < MAX_WORKERS) return Promise.resolve(spawn());
  return new Promise((resolve) => waiting.push(resolve));
}

function spawn(): Ready {
  started++;
  regexWorkerStats.started++;
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  const online = new Promise<void>((resolve, reject) => {
    worker.once('online', () => resolve());
    worker.once('error', reject);
  });
  online.catch(() => undefined);
  // A worker that fails exits; its job sees the exit. Without a listener the error would be thrown.
  worker.on('error', () => undefined);
  const ready = { worker, online };
  worker.once('exit', () => {
    if (!idle.includes(ready)) return;
    idle = idle.filter((entry) => entry !== ready);
    started--;
  });
  return ready;
}

function release(ready: Ready): void {
  const next = waiting.shift();
  if (next) return next(ready);
  if (idle.length >= MAX_IDLE) return stop(ready);
  ready.worker.unref();
  idle.push(ready);
}

/** Terminates the worker; a job waiting for one gets a fresh worker in its place. */
function stop(ready: Ready): void {
  started--;
  idle = idle.filter((entry) => entry !== ready);
  void ready.worker.terminate();
  const next = waiting.shift();
  if (next) next(spawn());
}

/** `work`, or OPERATION_TIMEOUT at `expiresAt`, or OPERATION_CANCELLED on the budget's signal. */
function withBudget<T>(
  work: Promise<T>,
  expiresAt: number,
  budget: RegexBudget,
  onLate?: (late: Promise<T>) => void,
): Promise<T> {
  const { signal, field = 'regex' } = budget;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const fail = (error: BrowserMeshError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      onLate?.(work);
      reject(error);
    };
    const onAbort = (): void =>
      fail(new BrowserMeshError(ErrorCodes.OPERATION_CANCELLED, 'Operation was cancelled by the caller'));
    const timer = setTimeout(
      () =>
        fail(
          new BrowserMeshError(
            ErrorCodes.OPERATION_TIMEOUT,
            'The regular expression did not finish in time',
            {
              details: { field },
              recoveryHint: 'Use a simpler pattern (no nested quantifiers such as (a+)+), or plain text.',
            },
          ),
        ),
      Math.max(0, expiresAt - Date.now()),
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
