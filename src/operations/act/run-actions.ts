import { Deadline } from '../../engine/deadline.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { toSerializedError, type ErrorCode, type ErrorDetails } from '../../errors.js';
import type { DialogNote } from '../page-services/dialogs.js';

/**
 * The `actions` batch of `browser_run`: typed steps run one after another in one queued operation
 * (no model turn in between). A failing step stops the batch; the count of completed steps, the
 * final URL and the failing step's error are always returned, never lost to a timeout.
 */

/**
 * One prepared step: its arguments already checked, its runner bound to them (the steps and their
 * runners are defined by the `browser_run` step table, src/tools/run-step-table.ts).
 */
export interface ActionStep {
  action: string;
  run: StepRun;
}

/** Runs a step on the page; `field` names it in errors (`actions.3`), `dialogs` collects notes. */
export type StepRun = (ctx: PageOperationContext, field: string, dialogs: DialogNote[]) => Promise<StepOut>;

export type StepOut = Omit<StepResult, 'index' | 'action'> | undefined;

/** What a step reports, only when it has something to say (a type alias: it is published as JSON). */
export type StepResult = {
  index: number;
  action: string;
  snapshot?: string;
  snapshotPartial?: boolean;
  selected?: string[];
  title?: string;
  status?: number | null;
  quiet?: boolean;
  elapsedMs?: number;
};

export interface ActionsResult {
  completed: number;
  total: number;
  url: string;
  results?: StepResult[];
  failed?: {
    index: number;
    action: string;
    /** The step's error as the step's own tool reports it: details and hint included. */
    error: { code: ErrorCode; message: string; details?: ErrorDetails; recoveryHint?: string };
  };
  dialogs?: DialogNote[];
}

/**
 * @example
 * const steps = toActionSteps([{ action: 'goto', url }, { action: 'snapshot' }]); // src/tools/run-steps.ts
 * const out = await mesh.runOnPage(sessionId, pageId, 'run', (ctx) => runActions(ctx, steps));
 */
export async function runActions(
  ctx: PageOperationContext,
  steps: readonly ActionStep[],
  /** Called as each step starts (progress reporting). */
  onStep?: (index: number, action: string) => void,
): Promise<ActionsResult> {
  const inner = innerContext(ctx);
  const results: StepResult[] = [];
  const dialogs: DialogNote[] = [];
  let failed: ActionsResult['failed'];
  let completed = 0;
  for (const [index, step] of steps.entries()) {
    onStep?.(index, step.action);
    try {
      const out = await step.run(inner, `actions.${index}`, dialogs);
      if (out) results.push({ index, action: step.action, ...out });
      completed++;
    } catch (error) {
      const { code, message, details, recoveryHint } = toSerializedError(error);
      const extra = { ...(details ? { details } : {}), ...(recoveryHint ? { recoveryHint } : {}) };
      failed = { index, action: step.action, error: { code, message, ...extra } };
      break;
    }
  }
  const page = ctx.page.page;
  return {
    completed,
    total: steps.length,
    url: page.isClosed() ? '' : page.url(),
    ...(results.length > 0 ? { results } : {}),
    ...(failed ? { failed } : {}),
    ...(dialogs.length > 0 ? { dialogs } : {}),
  };
}

/** Time kept back from a batch's deadline to report how far it got (10%, 50-1000 ms). */
export function reportMarginMs(deadline: Deadline): number {
  return Math.min(1000, Math.max(50, Math.floor(deadline.timeoutMs / 10)));
}

/** The operation's context with a deadline that ends `reportMarginMs` early. */
export function innerContext(ctx: PageOperationContext): PageOperationContext {
  const timeoutMs = Math.max(1, ctx.deadline.timeoutMs - reportMarginMs(ctx.deadline));
  return { ...ctx, deadline: new Deadline(timeoutMs, ctx.deadline.acceptedAt) };
}
