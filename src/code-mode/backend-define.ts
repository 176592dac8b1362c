import type { PageOperationContext } from '../engine/runtime.js';
import type { ActionResult } from '../operations/act/action-scope.js';
import { MAX_SCROLL_DELTA } from '../operations/act/actions.js';
import type { TargetSpec } from '../operations/locate/locator-spec.js';
import type { LoadState as NavLoadState } from '../operations/navigate/navigation.js';
import { waitForQuiet } from '../operations/navigate/quiet.js';
import { MAX_TYPE_DELAY_MS } from '../operations/act/typing.js';
import { waitForCondition } from '../operations/navigate/waits.js';
import type { KeepImage } from './backend-shots.js';
import type { ElementSelector, LoadState } from './facade-calls.js';
import type { FacadeCall, FacadeOp, FacadeResult } from './facade-parse.js';
import { toTargetSpec } from './selector-target.js';

/**
 * The host half of the code-mode operation table: one runner per facade op, each calling the
 * engine operation the typed tools use for the same thing. (The parsing half is FACADE_OPS in
 * facade-parse.ts: it runs inside the sandbox worker, which must not load the engine.)
 */

/** Receives every action result so the run can report the dialogs it handled. */
export type Note = (result: ActionResult) => void;

export interface RunIo {
  note: Note;
  keep: KeepImage;
}

/** The call of one op (`FacadeCall & { op }` also narrows members that share one shape). */
export type CallOf<Op extends FacadeOp> = FacadeCall & { op: Op };

/** `ctx` is the run's context narrowed to this call (its signal and, with a timeout, its deadline). */
export type Runner<Op extends FacadeOp> = (
  ctx: PageOperationContext,
  call: CallOf<Op>,
  io: RunIo,
) => Promise<FacadeResult<Op>>;

export type FacadeRunners = { [Op in FacadeOp]: Runner<Op> };

/**
 * Every op's runner, by op: the ones of this folder and those a tool definition brings (its `code`
 * parts, src/tools/code-parts.ts), handed in by the tool that runs the script (browser_run). A Map,
 * so an op such as 'constructor' never reaches an inherited Object member.
 */
export type RunnerTable = ReadonlyMap<string, Runner<FacadeOp>>;

/** An action whose only result for the script is `null` (its dialogs go to the run's note). */
export const acted = async (note: Note, result: Promise<ActionResult>): Promise<null> => {
  note(await result);
  return null;
};

export const target = (selector: ElementSelector): TargetSpec => toTargetSpec(selector);

/** `networkidle` is the page load plus a network-only quiet window (never past the deadline). */
export async function afterLoad(ctx: PageOperationContext, state: LoadState | undefined): Promise<null> {
  if (state === undefined) return null;
  if (state === 'networkidle') {
    await waitForCondition(ctx, { kind: 'loadState', state: 'load' });
    await waitForQuiet(ctx, { maxMs: ctx.deadline.remainingMs(), dom: false });
  } else {
    await waitForCondition(ctx, { kind: 'loadState', state });
  }
  return null;
}

/** No waitUntil: the operations' default (parsed, then a short grace for load), as every face has it. */
export function toNavState(state: LoadState | undefined): NavLoadState | undefined {
  if (state === undefined) return undefined;
  return state === 'domcontentloaded' ? 'domcontentloaded' : 'load';
}

export const delayOf = (delayMs: number | undefined): number =>
  Math.min(Math.max(0, Math.round(delayMs ?? 0)), MAX_TYPE_DELAY_MS);
export const toDelta = (value: number): number =>
  Math.max(-MAX_SCROLL_DELTA, Math.min(MAX_SCROLL_DELTA, Math.round(value)));
