import type { FacadeCall } from './facade-parse.js';
import type { ScriptOutcome } from './script-types.js';

/**
 * Messages between `runScript` (main thread) and a sandbox worker. Scripts run in worker threads so
 * that a script stuck inside QuickJS never blocks the host's event loop and can always be stopped:
 * QuickJS polls its interrupt handler only every ~10,000 branches, so a loop around one slow
 * built-in (a big `sort()`, say) can run for minutes between polls; `worker.terminate()` stops it
 * at once.
 */

export interface WorkerLimits {
  /** Epoch ms; both threads read the same wall clock. */
  deadline: number;
  memoryLimitBytes: number;
  maxStackBytes: number;
  maxOperations: number;
  maxResultBytes: number;
  maxLogLines: number;
  maxLogChars: number;
}

/** The answer to one page call: the reply string the prelude parses, and the error code if any. */
export interface CallReply {
  reply: string;
  failedCode?: string;
}

export type ToWorker =
  | { type: 'run'; code: string; limits: WorkerLimits; startedAt: number; control: SharedArrayBuffer }
  | ({ type: 'reply'; id: number } & CallReply)
  | { type: 'cancel' };

export type FromWorker =
  | { type: 'ready' }
  /** The warm-up ended after `warmUpRuns` throwaway scripts (see sandbox-worker.ts). */
  | { type: 'warmed'; warmUpRuns: number }
  | { type: 'call'; id: number; call: FacadeCall; member: string; step: number }
  | { type: 'log'; line: string }
  | {
      type: 'done';
      outcome: ScriptOutcome;
      operations: number;
      logsTruncated: boolean;
      /** False if the worker's QuickJS module must not run another script. */
      reusable: boolean;
      /** Debug builds only: a memory-leak report from QuickJS after the script was disposed. */
      leak?: string;
    };

export interface WorkerConfig {
  /** 'debug' uses QuickJS's leak-checking debug build (slow; for tests). */
  variant: 'release' | 'debug';
  /** The script heap this worker allows (its WebAssembly memory maximum adds fixed overhead). */
  memoryLimitBytes: number;
  /**
   * Run throwaway scripts once ready, until a script arrives (release build only): set for a
   * prewarmed worker, never for one a script is waiting to start.
   */
  warmUp: boolean;
}

/**
 * Fixed WebAssembly memory of the QuickJS build (static data, C stack, allocator start): the
 * module's own minimum. A worker's memory maximum is this plus the script's memory limit.
 */
export const WASM_BASE_MEMORY_BYTES = 16 * 1024 * 1024;

/** `control[0]` becomes 1 when the main thread cancels; the interrupt handler reads it. */
export const CONTROL_CANCELLED = 1;
