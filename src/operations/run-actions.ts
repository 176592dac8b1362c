import { Deadline } from '../engine/deadline.js';
import type { PageOperationContext } from '../engine/runtime.js';
import { toSerializedError, type ErrorCode } from '../errors.js';
import { click, hover, scroll, type ClickInput } from './actions.js';
import type { DialogNote } from './dialogs.js';
import { fill, selectOption, setChecked, type OptionCriteria } from './forms.js';
import type { TargetSpec } from './locator-spec.js';
import { navigate, type LoadState } from './navigation.js';
import { waitForQuiet } from './quiet.js';
import { snapshot, type SnapshotInput } from './snapshot.js';
import { press, typeText } from './typing.js';
import { waitForCondition, type WaitCondition } from './waits.js';

/**
 * The `actions` batch of `browser_run`: typed steps run one after another in one queued operation
 * (no model turn in between). A failing step stops the batch; the count of completed steps, the
 * final URL and the failing step's error are always returned, never lost to a timeout.
 */

type Targeted = TargetSpec;

export type ActionStep =
  | { action: 'goto'; url: string; waitUntil?: LoadState | undefined }
  | ({ action: 'click' } & Targeted & ClickInput)
  | ({ action: 'fill'; value: string } & Targeted)
  | ({ action: 'type'; text: string; delayMs?: number | undefined } & Partial<Targeted>)
  | ({ action: 'press'; key: string } & Partial<Targeted>)
  | ({ action: 'select'; criteria: OptionCriteria } & Targeted)
  | ({ action: 'check' | 'uncheck' | 'hover' } & Targeted)
  | ({ action: 'scroll'; deltaX?: number | undefined; deltaY?: number | undefined } & Partial<Targeted>)
  /** A condition (as browser_wait), or `ms`: a quiet-aware sleep. */
  | { action: 'wait'; condition: WaitCondition }
  | { action: 'wait'; ms: number }
  | ({ action: 'snapshot' } & Pick<SnapshotInput, 'interactiveOnly' | 'maxChars'>);

/** What a step reports, only when it has something to say (a type alias: it is published as JSON). */
export type StepResult = {
  index: number;
  action: ActionStep['action'];
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
  failed?: { index: number; action: ActionStep['action']; error: { code: ErrorCode; message: string } };
  dialogs?: DialogNote[];
}

/**
 * @example
 * const out = await mesh.runOnPage(sessionId, pageId, 'run', (ctx) => runActions(ctx, [
 *   { action: 'goto', url },
 *   { action: 'fill', locator: { label: 'Email' }, value: 'a@b.c' },
 *   { action: 'click', locator: { role: 'button', name: 'Send' } },
 * ]));
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
      const out = await runStep(inner, step, dialogs, `actions.${index}`);
      if (out) results.push({ index, action: step.action, ...out });
      completed++;
    } catch (error) {
      const { code, message } = toSerializedError(error);
      failed = { index, action: step.action, error: { code, message } };
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

type StepOut = Omit<StepResult, 'index' | 'action'> | undefined;

async function runStep(
  ctx: PageOperationContext,
  step: ActionStep,
  dialogs: DialogNote[],
  field: string,
): Promise<StepOut> {
  const acted = async (run: Promise<{ dialogs?: DialogNote[] }>): Promise<undefined> => {
    dialogs.push(...((await run).dialogs ?? []));
    return undefined;
  };
  switch (step.action) {
    case 'goto': {
      const { title, status, loadState } = await navigate(ctx, step.url, step.waitUntil);
      // Said only when it is news: the page was usable but its load event had not come.
      return { title, status, ...(loadState === 'load' ? {} : { loadState }) };
    }
    case 'click':
      return acted(click(ctx, step, field, step));
    case 'fill':
      return acted(fill(ctx, step, field, step.value));
    case 'type':
      return acted(typeText(ctx, step, field, step.text, step.delayMs ?? 0));
    case 'press':
      return acted(press(ctx, step, field, step.key));
    case 'check':
    case 'uncheck':
      return acted(setChecked(ctx, step, field, step.action === 'check'));
    case 'hover':
      return acted(hover(ctx, step, field));
    case 'scroll':
      return acted(scroll(ctx, step, field, step.deltaX ?? 0, step.deltaY ?? 0));
    case 'select': {
      const result = await selectOption(ctx, step, field, step.criteria);
      dialogs.push(...(result.dialogs ?? []));
      return { selected: result.selected };
    }
    case 'wait':
      if ('ms' in step) return waitForQuiet(ctx, { maxMs: step.ms });
      dialogs.push(...((await waitForCondition(ctx, step.condition)).dialogs ?? []));
      return undefined;
    case 'snapshot': {
      const taken = await snapshot(ctx, { interactiveOnly: step.interactiveOnly, maxChars: step.maxChars });
      return { snapshot: taken.snapshot, ...(taken.partial ? { snapshotPartial: true } : {}) };
    }
  }
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
