import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import {
  DEBUG_SYNC,
  RELEASE_SYNC,
  TestQuickJSWASMModule,
  newQuickJSWASMModule,
  newVariant,
} from 'quickjs-emscripten';
import type { FacadeCall } from './facade-parse.js';
import { ScriptSession, type SandboxModule } from './script-session.js';
import {
  WASM_BASE_MEMORY_BYTES,
  type CallReply,
  type FromWorker,
  type ToWorker,
  type WorkerConfig,
} from './worker-protocol.js';

/**
 * Entry point of a sandbox worker thread. It loads one QuickJS WebAssembly module and runs one
 * script at a time in it, each in a fresh runtime and context. Page calls and console lines go to
 * the main thread, which owns the backend.
 *
 * The module gets a WebAssembly memory with a hard maximum. That maximum is what really bounds a
 * script's memory: QuickJS's own `setMemoryLimit` only refuses single oversized allocations in the
 * prebuilt WASM (its accounting counts ~8 bytes per allocation there; quickjs-emscripten issues
 * #255 and #271), so many 1 MB strings would otherwise grow the host process without bound.
 */

/** Throwaway scripts a prewarmed worker runs while nobody needs it; measured: the third run is warm. */
const WARM_UP_RUNS = 3;
const WARM_UP_SCRIPT =
  'const title = await page.title(); console.log(title); return { title, n: [1, 2].map((x) => x * 2) };';

const port = parentPort;
if (port === null) throw new Error('sandbox-worker must run in a worker thread');
const config = workerData as WorkerConfig;
const quickjs = await loadModule(config);
const pending = new Map<number, (reply: CallReply) => void>();
let nextCallId = 0;
let cancel: AbortController | undefined;
/** Set by the first real script: the warm-up ends after the throwaway run in progress. */
let scriptArrived = false;
/** The warm-up, posted as 'warmed' when it ends; a real script starts after it. */
let warming: Promise<void> = Promise.resolve();

port.on('message', (message: ToWorker) => {
  if (message.type === 'run') {
    scriptArrived = true;
    void warming.then(() => run(port, message));
  } else if (message.type === 'reply') settle(message.id, message);
  else cancel?.abort();
});
// Ready as soon as the module is loaded: a script that comes during the warm-up waits for one
// throwaway run at most, not for the whole warm-up.
post(port, { type: 'ready' });
if (config.warmUp && config.variant === 'release')
  warming = warmUp(quickjs.module, config.memoryLimitBytes).then((warmUpRuns) =>
    post(port, { type: 'warmed', warmUpRuns }),
  );

async function run(out: MessagePort, message: Extract<ToWorker, { type: 'run' }>): Promise<void> {
  // Replies owed to an earlier script can never arrive now (the main thread drops them).
  pending.clear();
  cancel = new AbortController();
  const session = new ScriptSession(
    quickjs.module,
    {
      limits: message.limits,
      transport: { send: (call, member, step) => send(out, call, member, step) },
      signal: cancel.signal,
      control: new Int32Array(message.control),
      startedAt: message.startedAt,
      onLog: (line) => post(out, { type: 'log', line }),
      memoryFull: () => quickjs.memoryFull(),
    },
    message.code.split('\n').length,
  );
  const outcome = await session.run(message.code);
  const healthy = session.dispose();
  const leak = quickjs.checkLeaks();
  const reusable = healthy;
  const { operations, logsTruncated } = session.bridge;
  post(out, {
    type: 'done',
    outcome,
    operations,
    logsTruncated,
    reusable,
    ...(leak === undefined ? {} : { leak }),
  });
  cancel = undefined;
}

function send(out: MessagePort, call: FacadeCall, member: string, step: number): Promise<CallReply> {
  const id = nextCallId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    post(out, { type: 'call', id, call, member, step });
  });
}

function settle(id: number, reply: CallReply): void {
  const resolve = pending.get(id);
  pending.delete(id);
  resolve?.(reply);
}

function post(out: MessagePort, message: FromWorker): void {
  out.postMessage(message);
}

/**
 * A fresh worker's first scripts run several times slower than later ones: V8 has not yet compiled
 * the QuickJS glue and the hot WebAssembly functions with its optimizing tiers. A prewarmed worker
 * runs a few throwaway scripts through the same path as a real one (runtime, context, prelude, one
 * page call answered here, result and console line out), so that cost is paid in the background,
 * not by the first browser_run. Each run is its own macrotask, so a real script's 'run' message is
 * seen between two runs and ends the warm-up there. Only a prewarmed worker, and only the release
 * build: the leak-checking debug build exists for tests and accounts every allocation.
 */
async function warmUp(module: SandboxModule, memoryLimitBytes: number): Promise<number> {
  const reply: CallReply = { reply: JSON.stringify({ ok: true, value: 'warm-up' }) };
  for (let run = 0; run < WARM_UP_RUNS; run++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (scriptArrived) return run;
    const limits = {
      deadline: Date.now() + 10_000,
      memoryLimitBytes,
      maxStackBytes: 128 * 1024,
      maxOperations: 1,
      maxResultBytes: 1024,
      maxLogLines: 1,
      maxLogChars: 100,
    };
    const session = new ScriptSession(
      module,
      {
        limits,
        transport: { send: async () => reply },
        signal: new AbortController().signal,
        control: new Int32Array(new SharedArrayBuffer(4)),
        startedAt: Date.now(),
        onLog: () => undefined,
        memoryFull: () => false,
      },
      1,
    );
    const outcome = await session.run(WARM_UP_SCRIPT);
    // A module that cannot run the warm-up script is reported by the first real script instead.
    if (!session.dispose() || !outcome.ok) return run;
  }
  return WARM_UP_RUNS;
}

interface LoadedModule {
  module: SandboxModule;
  checkLeaks: () => string | undefined;
  memoryFull: () => boolean;
}

async function loadModule(options: WorkerConfig): Promise<LoadedModule> {
  const pageBytes = 64 * 1024;
  // The debug build's LeakSanitizer needs far more room: it keeps the build's own 2 GiB maximum.
  const maximum =
    options.variant === 'release'
      ? Math.ceil((WASM_BASE_MEMORY_BYTES + options.memoryLimitBytes) / pageBytes)
      : 32_768;
  const wasmMemory = new WebAssembly.Memory({ initial: WASM_BASE_MEMORY_BYTES / pageBytes, maximum });
  // "Nearly full": a failed allocation may have asked for more than what is left.
  const memoryFull = (): boolean =>
    wasmMemory.buffer.byteLength >= maximum * pageBytes - options.memoryLimitBytes / 4;
  const variant = newVariant(options.variant === 'release' ? RELEASE_SYNC : DEBUG_SYNC, { wasmMemory });
  if (options.variant === 'release') {
    return { module: await newQuickJSWASMModule(variant), checkLeaks: () => undefined, memoryFull };
  }
  const module = new TestQuickJSWASMModule(await newQuickJSWASMModule(variant));
  const checkLeaks = (): string | undefined => {
    // Its runtime bookkeeping never clears (newRuntime ignores ownedLifetimes); a failed disposal
    // already retires the worker, so only the LeakSanitizer check matters here.
    module.runtimes.clear();
    try {
      module.assertNoMemoryAllocated();
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  return { module, checkLeaks, memoryFull };
}
