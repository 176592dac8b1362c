import type { PageOperationContext } from '../../engine/runtime.js';
import { isLogging, recordStep, type BestLocator, type LoggedTarget } from '../journal/action-log.js';
import { describeTarget } from '../locate/best-locator.js';
import { resolveTarget } from '../locate/locate.js';
import { checkLocator, type TargetSpec } from '../locate/locator-spec.js';
import { releaseObjects } from '../locate/remote-element.js';
import type { WaitCondition } from './wait-condition.js';

/**
 * A satisfied wait as a log step (a spec's web-first assertion): the URL, a text shown or gone, an
 * element's state. An element that is there is described like an action's target; one that is gone
 * can only be named by the agent's own frame-less locator. Load-state waits need no step (Playwright
 * waits for load on its own).
 */
export async function logWait(
  ctx: PageOperationContext,
  condition: WaitCondition,
  matched: string | undefined,
): Promise<void> {
  if (!isLogging(ctx)) return;
  switch (condition.kind) {
    case 'url':
      recordStep(ctx, { kind: 'waitUrl', urlPattern: condition.pattern });
      return;
    case 'text':
      if (condition.present && matched !== undefined) recordStep(ctx, { kind: 'waitText', value: matched });
      if (!condition.present) recordStep(ctx, { kind: 'waitTextGone', values: condition.texts });
      return;
    case 'element': {
      const target = await targetOf(ctx, condition.target, condition.state);
      if (target) recordStep(ctx, { kind: 'waitElement', targets: [target], state: condition.state });
      return;
    }
    default:
      return;
  }
}

async function targetOf(
  ctx: PageOperationContext,
  spec: TargetSpec,
  state: string,
): Promise<LoggedTarget | undefined> {
  if (state === 'hidden' || state === 'detached') return fromSpec(spec);
  const element = await resolveTarget(ctx.page, spec, ctx.deadline, '', ctx.signal).catch(() => undefined);
  if (!element) return undefined;
  try {
    return await describeTarget(ctx.page, element).catch(() => undefined);
  } finally {
    void releaseObjects([element.cdp, ...element.frameOwners.map((o) => o.cdp)]);
  }
}

/** The agent's own main-frame locator as a spec locator (refs and built chains cannot be kept). */
function fromSpec(spec: TargetSpec): LoggedTarget | undefined {
  if (spec.locator === undefined) return undefined;
  const checked = (() => {
    try {
      return checkLocator(spec.locator, 'locator');
    } catch {
      return undefined;
    }
  })();
  if (!checked || checked.chain.length > 0) return undefined;
  const exact = checked.exact ? { exact: true } : {};
  const element: BestLocator =
    checked.strategy === 'role'
      ? {
          by: 'role',
          role: checked.value,
          ...(checked.name !== undefined ? { name: checked.name } : {}),
          ...exact,
        }
      : checked.strategy === 'testId' || checked.strategy === 'css'
        ? { by: checked.strategy, value: checked.value }
        : { by: checked.strategy, value: checked.value, ...exact };
  const css = checked.strategy === 'css' ? checked.value : '';
  return { frames: [], element, css, unique: true, secretField: false };
}
