import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { PRELUDE_FILENAME, PRELUDE_SOURCE } from './prelude.js';
import {
  SCRIPT_FILENAME,
  classifyError,
  finishValue,
  parseDescribed,
  UNREADABLE,
  wrapScript,
  type DescribedError,
  type ErrorContext,
} from './script-errors.js';
import { HostBridge, type CallTransport } from './script-host.js';
import type { ScriptError, ScriptOutcome } from './script-types.js';
import { CONTROL_CANCELLED, type WorkerLimits } from './worker-protocol.js';

/** The part of a QuickJS module a session uses (a `TestQuickJSWASMModule` also fits, for tests). */
export type SandboxModule = Pick<QuickJSWASMModule, 'newRuntime' | 'getWasmMemory'>;

export interface SessionOptions {
  limits: WorkerLimits;
  transport: CallTransport;
  /** Aborted when a cancel message arrives (wakes the driver while the VM is idle). */
  signal: AbortSignal;
  /** Set to CONTROL_CANCELLED by the main thread; read by the interrupt handler while the VM runs. */
  control: Int32Array;
  startedAt: number;
  onLog: (line: string) => void;
  /** Whether the module's memory is (nearly) used up. */
  memoryFull: () => boolean;
}

export const CANCELLED: ScriptError = { kind: 'cancelled', message: 'The script was cancelled' };

export function timeoutError(budgetMs: number): ScriptError {
  return { kind: 'timeout', message: `The script did not finish within its deadline (${budgetMs} ms)` };
}

/** Jobs run per `executePendingJobs` call, so stop conditions are checked between batches. */
const JOB_BATCH = 256;
export const CRASHED =
  'The sandbox failed while running the script (its native stack or WebAssembly memory was exhausted); it was stopped';

/**
 * One script in one fresh QuickJS runtime (inside a sandbox worker). QuickJS runs synchronously,
 * so the driver alternates: run the VM until it is idle (pending jobs done), then wait for a page
 * call to settle, the deadline or cancellation. Every VM slice runs under an interrupt handler that
 * ends the script at the deadline or on cancellation (the main thread backs this up by
 * terminating the worker, since QuickJS polls the handler only now and then).
 */
export class ScriptSession {
  readonly bridge: HostBridge;
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly errorContext: ErrorContext;
  private helpers: { serialize: QuickJSHandle; describe: QuickJSHandle } | undefined;
  private stopReason: ScriptError | undefined;
  private jobError: DescribedError | undefined;
  private crashed = false;
  private wake: (() => void) | undefined;
  private woken = false;

  private readonly limits: WorkerLimits;

  constructor(
    module: SandboxModule,
    private readonly options: SessionOptions,
    userLines: number,
  ) {
    const { limits } = options;
    this.limits = limits;
    this.runtime = module.newRuntime();
    this.runtime.setMemoryLimit(limits.memoryLimitBytes);
    this.runtime.setMaxStackSize(limits.maxStackBytes);
    this.runtime.removeModuleLoader();
    this.context = this.runtime.newContext();
    this.bridge = new HostBridge(this.context, options.transport, limits, {
      notify: () => this.notify(),
      stop: (kind, message) => this.halt({ kind, message }),
      crash: () => this.crash(),
      log: options.onLog,
    });
    this.errorContext = { steps: this.bridge.steps, userLines, ...limits, memoryFull: options.memoryFull };
  }

  async run(code: string): Promise<ScriptOutcome> {
    const unwatch = this.watch();
    try {
      if (this.shouldStop()) return this.stopped();
      // The prelude is trusted and short: it runs before the interrupt handler exists, so a
      // deadline cannot cut it off half-installed.
      this.install();
      this.runtime.setInterruptHandler(() => this.shouldStop());
      const evaluated = this.evaluate(code);
      if ('outcome' in evaluated) return evaluated.outcome;
      try {
        return await this.drive(evaluated.main);
      } finally {
        if (!this.crashed) evaluated.main.dispose();
      }
    } catch (error) {
      // QuickJS reports script errors as values; a throw here means the module itself failed
      // (a V8 stack overflow inside WASM, an emscripten abort) or, rarely, the prelude did.
      if (error instanceof WebAssembly.RuntimeError || error instanceof RangeError) this.crash();
      else this.halt({ kind: 'limit', message: 'The sandbox could not run the script' });
      return this.stopped();
    } finally {
      unwatch();
    }
  }

  /** Releases everything; returns whether the module is still fit for another script. */
  dispose(): boolean {
    this.bridge.close(!this.crashed);
    if (this.crashed) return false;
    try {
      this.helpers?.serialize.dispose();
      this.helpers?.describe.dispose();
      this.context.dispose();
      this.runtime.dispose();
      return true;
    } catch {
      return false;
    }
  }

  private async drive(main: QuickJSHandle): Promise<ScriptOutcome> {
    for (;;) {
      this.pump();
      if (this.stopReason !== undefined) return this.stopped();
      if (this.jobError !== undefined)
        return { ok: false, error: classifyError(this.jobError, this.errorContext, false) };
      const state = this.context.getPromiseState(main);
      if (state.type === 'fulfilled') {
        const text = this.callHelper('serialize', state.value);
        state.value.dispose();
        return this.stopReason === undefined
          ? finishValue(text, this.limits.maxResultBytes, this.errorContext)
          : this.stopped();
      }
      if (state.type === 'rejected') {
        const outcome = this.errorOutcome(state.error, false);
        state.error.dispose();
        return outcome;
      }
      if (this.bridge.inFlight === 0 && !this.runtime.hasPendingJob()) {
        const message = 'The script is waiting on a promise that can never settle (no page call is pending)';
        return { ok: false, error: { kind: 'runtime', message } };
      }
      await this.nextWake();
    }
  }

  /** Runs queued promise jobs until the VM is idle or the script must stop. */
  private pump(): void {
    while (this.stopReason === undefined && this.jobError === undefined && this.runtime.hasPendingJob()) {
      const result = this.runtime.executePendingJobs(JOB_BATCH);
      if (result.error !== undefined) this.jobError = this.describe(result.error);
      result.dispose();
    }
  }

  private install(): void {
    const ctx = this.context;
    const fns = this.bridge.newFunctions();
    const config = JSON.stringify({
      maxLogChars: this.limits.maxLogChars,
      maxResultChars: this.limits.maxResultBytes,
    });
    const configHandle = ctx.newString(config);
    const install = ctx.evalCode(PRELUDE_SOURCE, PRELUDE_FILENAME, { type: 'global' });
    try {
      const helpers = ctx.unwrapResult(
        ctx.callFunction(ctx.unwrapResult(install), ctx.undefined, ...fns, configHandle),
      );
      this.helpers = {
        serialize: ctx.getProp(helpers, 'serialize'),
        describe: ctx.getProp(helpers, 'describeError'),
      };
      helpers.dispose();
    } finally {
      // unwrapResult has already released a failed result's error handle.
      if (install.alive) install.dispose();
      for (const fn of fns) fn.dispose();
      configHandle.dispose();
    }
  }

  private evaluate(code: string): { main: QuickJSHandle } | { outcome: ScriptOutcome } {
    const result = this.context.evalCode(wrapScript(code), SCRIPT_FILENAME, { type: 'global' });
    if (result.error === undefined) return { main: result.value };
    const outcome = this.errorOutcome(result.error, true);
    result.error.dispose();
    return { outcome };
  }

  private errorOutcome(error: QuickJSHandle, compiling: boolean): ScriptOutcome {
    const described = this.describe(error);
    if (this.stopReason !== undefined) return this.stopped();
    return { ok: false, error: classifyError(described, this.errorContext, compiling) };
  }

  private describe(error: QuickJSHandle): DescribedError {
    return parseDescribed(this.callHelper('describe', error)) ?? UNREADABLE;
  }

  /** Calls a prelude helper with one argument; undefined if it failed or returned a non-string. */
  private callHelper(which: 'serialize' | 'describe', arg: QuickJSHandle): string | undefined {
    if (this.helpers === undefined || this.stopReason !== undefined) return undefined;
    const ctx = this.context;
    const result = ctx.callFunction(this.helpers[which], ctx.undefined, arg);
    if (result.error !== undefined) {
      result.error.dispose();
      return undefined;
    }
    const text = ctx.typeof(result.value) === 'string' ? ctx.getString(result.value) : undefined;
    result.value.dispose();
    return text;
  }

  /** Interrupt handler and stop check: true once the script has to end. */
  private shouldStop(): boolean {
    if (this.stopReason !== undefined) return true;
    if (this.options.signal.aborted || Atomics.load(this.options.control, 0) === CONTROL_CANCELLED) {
      this.halt(CANCELLED);
    } else if (Date.now() >= this.limits.deadline) {
      this.halt(this.timeout());
    }
    return this.stopReason !== undefined;
  }

  private timeout(): ScriptError {
    return timeoutError(this.limits.deadline - this.options.startedAt);
  }

  private halt(reason: ScriptError): void {
    this.stopReason ??= reason;
    this.notify();
  }

  private crash(): void {
    this.crashed = true;
    this.halt({ kind: 'limit', message: CRASHED });
  }

  private stopped(): ScriptOutcome {
    return { ok: false, error: this.stopReason ?? { kind: 'limit', message: CRASHED } };
  }

  /** Wakes the driver on cancellation and at the deadline, even while no page call is pending. */
  private watch(): () => void {
    const { signal } = this.options;
    const onAbort = (): void => this.halt(CANCELLED);
    const onDeadline = (): void => this.halt(this.timeout());
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      onDeadline,
      Math.min(Math.max(0, this.limits.deadline - Date.now()), 2 ** 31 - 1),
    );
    return () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    if (wake === undefined) this.woken = true;
    else wake();
  }

  private nextWake(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => (this.wake = resolve));
  }
}
