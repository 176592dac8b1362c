import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { signalWithTimeout } from '../timeout-signal.js';
import { devWorkerBootstrap } from './worker-dev-loader.js';
import type { FromWorker, WorkerConfig } from './worker-protocol.js';

/**
 * Sandbox worker threads, reused across scripts. A worker runs one script at a time; it returns
 * to the pool only if its QuickJS module is still healthy, otherwise it is terminated. Idle
 * workers are unref'd so they never keep the process alive.
 */

export interface SandboxWorkerOptions {
  /** QuickJS build: 'release' (default) or the leak-checking 'debug' build (tests). */
  variant?: WorkerConfig['variant'];
  /** Scripts running at once; more wait (their deadline still runs). Default max(4, CPUs). */
  maxWorkers?: number;
  /** Idle workers kept warm. Default 2. */
  maxIdle?: number;
  /**
   * How long a script may hold its worker before a waiting script gets a worker beyond maxWorkers
   * (one per script that has held its worker this long, never more than twice maxWorkers). Default 500.
   */
  sliceMs?: number;
  /** A worker not ready by then is stopped and its start fails. Default 30,000. */
  startupLimitMs?: number;
}

/**
 * Native stack for each worker. QuickJS's C frames cost far more V8 stack than QuickJS's own stack
 * accounting sees; 8 MiB leaves deeply nested source a 2x margin at the 128 KiB QuickJS maximum.
 */
const WORKER_STACK_MB = 8;

/** How long a script waits for a prewarmed worker still starting before it starts its own. */
const PREWARM_WAIT_MS = 5_000;

let config: Required<SandboxWorkerOptions> = defaults();
/** Idle workers with the memory limit they were built for (a WASM memory maximum is fixed). */
let idle: { worker: Worker; memoryLimitBytes: number }[] = [];
const limitOf = new WeakMap<Worker, number>();
let active = 0;
/** Prewarmed workers still starting, by memory limit: a script waits for one rather than start its own. */
const warming = new Map<number, Promise<unknown>>();

/**
 * Fair sharing. Every worker is held for a client: an HTTP client's owner key, or '' for the local
 * client (stdio, library), which is alone and so has no cap. A freed worker goes to the waiting
 * client that holds the fewest, first come first served among equals; a named client never holds
 * more than its cap, so it cannot take every worker from the others. One session holds at most one
 * worker (its operations run one at a time).
 *
 * Sessions of one client must not wait behind each other's long scripts either: when every worker
 * is taken, each script that has held its worker for `sliceMs` lends the pool one more worker, so a
 * short script starts while long ones spin (the OS shares the cores between the threads; each long
 * script is still stopped by its own CPU budget). The pool never grows past twice maxWorkers.
 */
const LOCAL_CLIENT = '';
const heldBy = new Map<string, number>();
/** Every granted slot with the time it was granted; a worker keeps its slot until released. */
interface Slot {
  client: string;
  since: number;
}
const slots = new Set<Slot>();
const slotOf = new WeakMap<Worker, Slot>();
let sliceTimer: NodeJS.Timeout | undefined;
interface Waiter {
  client: string;
  cap: number;
  grant: (slot: Slot) => void;
}
let waiters: Waiter[] = [];

/** Who asks for a worker, for fair sharing. */
export interface WorkerClaim {
  /** The HTTP client (owner key); undefined for the local client. */
  client?: string | undefined;
  /** Most workers this client may hold at once; default half the pool (at least 1). */
  maxPerClient?: number | undefined;
}

/**
 * Counters for tests and diagnostics: workers started, their warm-up runs, reuses, workers killed because a script
 * did not stop in time, workers dropped because their QuickJS module failed, idle workers stopped
 * because enough were idle, and leak reports from the debug build.
 */
export const workerStats = {
  started: 0,
  /** Throwaway scripts prewarmed workers ran (release build; see sandbox-worker.ts). */
  warmUpRuns: 0,
  reused: 0,
  killed: 0,
  unhealthy: 0,
  surplus: 0,
  leaks: [] as string[],
};

/**
 * A ready worker for a script with this memory limit, or undefined if `signal` aborted first
 * (deadline or cancellation).
 */
export async function acquireWorker(
  signal: AbortSignal,
  memoryLimitBytes: number,
  claim: WorkerClaim = {},
): Promise<Worker | undefined> {
  const client = claim.client ?? LOCAL_CLIENT;
  const slot = await waitForTurn(signal, client, capOf(client, claim.maxPerClient));
  if (slot === undefined) return undefined;
  const starting = warming.get(memoryLimitBytes);
  if (starting !== undefined) {
    const bounded = signalWithTimeout(signal, PREWARM_WAIT_MS);
    await untilAborted(starting, bounded.signal);
    bounded.dispose();
  }
  const index = idle.findIndex((entry) => entry.memoryLimitBytes === memoryLimitBytes);
  const warm = index < 0 ? undefined : idle.splice(index, 1)[0]?.worker;
  if (warm !== undefined) {
    workerStats.reused++;
    warm.ref();
    slotOf.set(warm, slot);
    // A full pool may soon lend a worker: have the next one started before a script waits for it.
    if (active >= config.maxWorkers) prewarmWorker(memoryLimitBytes);
    return warm;
  }
  try {
    const fresh = await startWorker(signal, memoryLimitBytes, false);
    if (fresh === undefined) releaseSlot(slot);
    else slotOf.set(fresh, slot);
    return fresh;
  } catch (error) {
    releaseSlot(slot);
    throw error;
  }
}

export function releaseWorker(worker: Worker, end: 'reuse' | 'killed' | 'unhealthy', leak?: string): void {
  if (leak !== undefined) workerStats.leaks.push(leak);
  const slot = slotOf.get(worker);
  slotOf.delete(worker);
  if (end === 'reuse') park(worker);
  else {
    workerStats[end]++;
    void worker.terminate();
  }
  if (slot !== undefined) releaseSlot(slot);
}

/**
 * Starts one worker for this memory limit in the background unless one is idle or the pool is busy,
 * so the first script of a process does not pay for the worker's start (~0.5-2 s).
 */
export function prewarmWorker(memoryLimitBytes: number): void {
  if (idle.some((entry) => entry.memoryLimitBytes === memoryLimitBytes)) return;
  if (active + idle.length >= config.maxWorkers * 2) return;
  if (warming.has(memoryLimitBytes)) return;
  // An aborted signal makes startWorker park the worker as soon as it is ready.
  const started = startWorker(AbortSignal.abort(), memoryLimitBytes, true)
    .catch(() => undefined)
    .finally(() => warming.delete(memoryLimitBytes));
  warming.set(memoryLimitBytes, started);
}

/** Waits for `promise`, or less if `signal` aborts first; never rejects. */
function untilAborted(promise: Promise<unknown>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    promise.then(done, done);
  });
}

/** Reconfigures the pool; idle workers are stopped (tests use this to select the debug build). */
export function configureSandboxWorkers(options: SandboxWorkerOptions): void {
  for (const entry of idle) void entry.worker.terminate();
  idle = [];
  config = { ...defaults(), ...options };
}

/** Workers held per client right now (tests and diagnostics). */
export function workersHeld(): ReadonlyMap<string, number> {
  return new Map(heldBy);
}

/** The pool at this moment, for a test that waited too long to say why (diagnostics). */
export function sandboxPoolState(): { active: number; waiting: number; idle: number; warming: number } {
  return { active, waiting: waiters.length, idle: idle.length, warming: warming.size };
}

function defaults(): Required<SandboxWorkerOptions> {
  // A start that hangs (a stuck loader thread, a starved machine) must not hold a script, or a
  // prewarm every later script waits for, until their deadlines; one takes 0.2-2 s, more when loaded.
  const startupLimitMs = 30_000;
  return {
    variant: 'release',
    maxWorkers: Math.max(4, availableParallelism()),
    maxIdle: 2,
    sliceMs: 500,
    startupLimitMs,
  };
}

function capOf(client: string, maxPerClient: number | undefined): number {
  if (client === LOCAL_CLIENT) return Infinity;
  const cap =
    maxPerClient === undefined || maxPerClient <= 0 ? Math.ceil(config.maxWorkers / 2) : maxPerClient;
  return Math.max(1, cap);
}

function releaseSlot(slot: Slot): void {
  if (!slots.delete(slot)) return;
  active--;
  const held = (heldBy.get(slot.client) ?? 1) - 1;
  if (held > 0) heldBy.set(slot.client, held);
  else heldBy.delete(slot.client);
  dispatch();
}

/**
 * Hands free workers to waiters: the client holding fewest first, then arrival order. Past
 * maxWorkers, only as many extra as there are scripts that have held their worker for a slice.
 */
function dispatch(): void {
  while (waiters.length > 0 && active < roomFor(Date.now())) {
    let best: Waiter | undefined;
    for (const waiter of waiters) {
      const held = heldBy.get(waiter.client) ?? 0;
      if (held >= waiter.cap) continue;
      if (best === undefined || held < (heldBy.get(best.client) ?? 0)) best = waiter;
    }
    if (best === undefined) break;
    waiters = waiters.filter((waiter) => waiter !== best);
    active++;
    heldBy.set(best.client, (heldBy.get(best.client) ?? 0) + 1);
    const slot: Slot = { client: best.client, since: Date.now() };
    slots.add(slot);
    best.grant(slot);
  }
  scheduleSlice();
}

/** Workers the pool may have running now: maxWorkers, plus one per script past its slice. */
function roomFor(now: number): number {
  let long = 0;
  for (const slot of slots) if (now - slot.since >= config.sliceMs) long++;
  return Math.min(config.maxWorkers + long, config.maxWorkers * 2);
}

/** While scripts wait on a full pool, looks again when the next running script reaches its slice. */
function scheduleSlice(): void {
  if (sliceTimer !== undefined) clearTimeout(sliceTimer);
  sliceTimer = undefined;
  if (waiters.length === 0 || active >= config.maxWorkers * 2) return;
  const now = Date.now();
  let next = Infinity;
  for (const slot of slots) if (now - slot.since < config.sliceMs) next = Math.min(next, slot.since);
  if (next === Infinity) return;
  sliceTimer = setTimeout(dispatch, next + config.sliceMs - now);
  sliceTimer.unref();
}

function waitForTurn(signal: AbortSignal, client: string, cap: number): Promise<Slot | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const waiter: Waiter = {
      client,
      cap,
      grant: (slot) => {
        signal.removeEventListener('abort', onAbort);
        resolve(slot);
      },
    };
    const onAbort = (): void => {
      waiters = waiters.filter((entry) => entry !== waiter);
      scheduleSlice();
      resolve(undefined);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    waiters.push(waiter);
    dispatch();
  });
}

/** Starts a worker and waits for its 'ready'; if `signal` aborts first the worker is parked for later. */
function startWorker(
  signal: AbortSignal,
  memoryLimitBytes: number,
  warmUp: boolean,
): Promise<Worker | undefined> {
  workerStats.started++;
  const worker = spawn({ variant: config.variant, memoryLimitBytes, warmUp });
  limitOf.set(worker, memoryLimitBytes);
  // An 'error' event with no listener would crash the host process; runs add their own listener.
  worker.on('error', () => undefined);
  worker.once('exit', () => (idle = idle.filter((entry) => entry.worker !== worker)));
  if (warmUp) {
    // The warm-up goes on after 'ready' (see sandbox-worker.ts); its runs are counted when it ends.
    const countWarmUp = (message: FromWorker): void => {
      if (message.type !== 'warmed') return;
      workerStats.warmUpRuns += message.warmUpRuns;
      worker.off('message', countWarmUp);
    };
    worker.on('message', countWarmUp);
  }
  return new Promise((resolve, reject) => {
    const limitMs = config.startupLimitMs;
    const startup = setTimeout(() => {
      cleanup();
      void worker.terminate();
      reject(new Error(`sandbox worker did not start within ${limitMs} ms`));
    }, limitMs);
    startup.unref();
    const onMessage = (message: FromWorker): void => {
      if (message.type !== 'ready') return;
      cleanup();
      if (!signal.aborted) return resolve(worker);
      park(worker);
      resolve(undefined);
    };
    const onExit = (code: number): void => {
      cleanup();
      reject(new Error(`sandbox worker exited during startup (code ${code})`));
    };
    const onAbort = (): void => {
      // Keep starting in the background: the next script can use it.
      signal.removeEventListener('abort', onAbort);
      resolve(undefined);
    };
    const cleanup = (): void => {
      clearTimeout(startup);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      signal.removeEventListener('abort', onAbort);
    };
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Keeps a worker warm (unref'd, so it never holds the process open) or stops it if enough are idle. */
function park(worker: Worker): void {
  const memoryLimitBytes = limitOf.get(worker);
  if (idle.length < config.maxIdle && memoryLimitBytes !== undefined) {
    worker.unref();
    idle.push({ worker, memoryLimitBytes });
  } else {
    workerStats.surplus++;
    void worker.terminate();
  }
}

function spawn(workerData: WorkerConfig): Worker {
  const options = { workerData, resourceLimits: { stackSizeMb: WORKER_STACK_MB } };
  if (import.meta.url.endsWith('.ts')) {
    const entry = new URL('./sandbox-worker.ts', import.meta.url).href;
    return new Worker(devWorkerBootstrap(entry), { ...options, eval: true });
  }
  return new Worker(new URL('./sandbox-worker.js', import.meta.url), options);
}
