import { Deadline } from '../engine/deadline.js';
import { toBrowserError, type PageOperationContext } from '../engine/runtime.js';
import type { DialogNote } from '../operations/dialogs.js';
import type { CodeModeBackend } from './backend.js';
import { runFacadeCall } from './backend-ops.js';
import type { FacadeCall } from './facade-calls.js';

/**
 * The code-mode backend on one session + page: every facade call runs the same engine operation the
 * typed tools run, directly on the run's context. The whole `browser_run` is ONE queued operation,
 * so calls never re-enqueue (they would deadlock on the slot the run holds); each is bounded by the
 * run's deadline (or its own shorter `timeout`) and aborts with the run's signal or the sandbox's.
 *
 * @example
 * await mesh.runOnPage(sessionId, pageId, 'run', (ctx) => runScript(code, createEngineBackend(ctx), {
 *   signal: ctx.signal, deadline: ctx.deadline.expiresAt,
 * }));
 */
export interface EngineBackend extends CodeModeBackend {
  /** Unexpected dialogs the page raised (and that were handled) during the run, oldest first. */
  readonly dialogs: DialogNote[];
  /**
   * Resolves once no call is still running. The sandbox stops waiting for a call the moment the
   * script is cancelled or ends; the run must still not give up its queue slot while that call is
   * touching the page, or the next operation would overlap it.
   */
  idle(): Promise<void>;
}

export function createEngineBackend(ctx: PageOperationContext): EngineBackend {
  const dialogs: DialogNote[] = [];
  const running = new Set<Promise<unknown>>();
  const invoke = async (call: FacadeCall, signal: AbortSignal): Promise<unknown> => {
    const callCtx = narrow(ctx, signal, 'timeoutMs' in call ? call.timeoutMs : undefined);
    try {
      return await runFacadeCall(callCtx, call, (result) => {
        if (result.dialogs) dialogs.push(...result.dialogs);
      });
    } catch (error) {
      // Raw Playwright text may quote the page: translated here, in the one place, like the tools do.
      throw toBrowserError(error, `${call.op} failed`);
    }
  };
  return {
    dialogs,
    invoke(call, signal) {
      const result = invoke(call, signal);
      running.add(result);
      void result.catch(() => undefined).finally(() => running.delete(result));
      return result;
    },
    async idle() {
      await Promise.allSettled([...running]);
    },
  };
}

/** The run's context for one call: both signals, and a per-call timeout that can only shorten. */
function narrow(
  ctx: PageOperationContext,
  signal: AbortSignal,
  timeoutMs: number | undefined,
): PageOperationContext {
  const deadline =
    timeoutMs === undefined || timeoutMs <= 0 || timeoutMs >= ctx.deadline.remainingMs()
      ? ctx.deadline
      : new Deadline(timeoutMs);
  return { ...ctx, deadline, signal: AbortSignal.any([ctx.signal, signal]) };
}
