import { Deadline } from '../engine/deadline.js';
import { toBrowserError, type PageOperationContext } from '../engine/runtime.js';
import type { DialogNote } from '../operations/page-services/dialogs.js';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { ActionResult } from '../operations/act/action-scope.js';
import type { CodeModeBackend } from './backend.js';
import type { CapturedImage } from './backend-shots.js';
import { runFacadeCall } from './backend-ops.js';
import { secretBlindCall } from './backend-matches.js';
import type { FacadeCall } from './facade-parse.js';
import type { RunnerTable } from './backend-define.js';
import { redactDeep, redactText, type SecretScope } from '../redaction/session-redact.js';

/**
 * The code-mode backend on one session + page: every facade call runs the same engine operation the
 * typed tools run, directly on the run's context. The whole `browser_run` is ONE queued operation,
 * so calls never re-enqueue (they would deadlock on the slot the run holds); each is bounded by the
 * run's deadline (or its own shorter `timeout`) and aborts with the run's signal or the sandbox's.
 *
 * @example
 * await mesh.runOnPage(sessionId, pageId, 'run', (ctx) => runScript(code, createEngineBackend(ctx, runners), {
 *   signal: ctx.signal, deadline: ctx.deadline.expiresAt,
 * }));
 */
export interface EngineBackend extends CodeModeBackend {
  /** Unexpected dialogs the page raised (and that were handled) during the run, oldest first. */
  readonly dialogs: DialogNote[];
  /** Images the script captured (page/locator.screenshot), in order, for the run's result. */
  readonly images: CapturedImage[];
  /**
   * Resolves once no call is still running. The sandbox stops waiting for a call the moment the
   * script is cancelled or ends; the run must still not give up its queue slot while that call is
   * touching the page, or the next operation would overlap it.
   */
  idle(): Promise<void>;
}

/** Screenshots one run may attach to its result (each is bounded by the screenshot limits). */
export const MAX_RUN_IMAGES = 3;

export function createEngineBackend(ctx: PageOperationContext, runners: RunnerTable): EngineBackend {
  const dialogs: DialogNote[] = [];
  const images: CapturedImage[] = [];
  const keep = (image: CapturedImage): number => {
    if (images.length >= MAX_RUN_IMAGES) {
      throw new BrowserMeshError(
        ErrorCodes.LIMIT_EXCEEDED,
        `A run returns at most ${MAX_RUN_IMAGES} screenshots`,
        { details: { field: 'screenshot', limit: MAX_RUN_IMAGES } },
      );
    }
    return images.push(image);
  };
  const running = new Set<Promise<unknown>>();
  const invoke = async (call: FacadeCall, signal: AbortSignal): Promise<unknown> => {
    const callCtx = narrow(ctx, signal, 'timeoutMs' in call ? call.timeoutMs : undefined);
    try {
      const note = (result: ActionResult): void => {
        if (result.dialogs) dialogs.push(...result.dialogs);
      };
      // What enters the sandbox has crossed the boundary: a text locator finds what it would find
      // with the secrets redacted, and every value a call returns is redacted here, the one place
      // values pass from the engine to the script, before the script can transform it past the run's
      // output redaction (docs/security.md, "The sandbox boundary").
      const blind = await secretBlindCall(callCtx, call);
      return redactDeep(ctx.session, await runFacadeCall(runners, callCtx, blind, note, keep));
    } catch (error) {
      // Raw Playwright text may quote the page: translated here, in the one place, like the tools do.
      throw redactedError(ctx.session, toBrowserError(error, `${call.op} failed`));
    }
  };
  return {
    dialogs,
    images,
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

/** The error the script sees: its message, details and hint redacted like a returned value. */
function redactedError(scope: SecretScope, error: BrowserMeshError): BrowserMeshError {
  const message = redactText(scope, error.message);
  const details = redactDeep(scope, error.details);
  const recoveryHint = error.recoveryHint === undefined ? undefined : redactText(scope, error.recoveryHint);
  if (message === error.message && details === error.details && recoveryHint === error.recoveryHint)
    return error;
  return new BrowserMeshError(error.code, message, { details, recoveryHint, cause: error });
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
