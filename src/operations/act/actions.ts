import { clickCheckedAcrossProcesses } from './checked-click.js';
import { selectTextIn } from './select-text.js';
import { redactorOf } from '../../redaction/session-redact.js';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { performAction, type ActionResult } from './action-scope.js';
import type { ModifierName } from './keyboard.js';
import { hasTarget, type TargetSpec } from '../locate/locator-spec.js';
import { FOCUS, SCROLL_BY } from '../locate/page-functions.js';
import {
  actionPoint,
  dispatchClick,
  dispatchMove,
  DetachedError,
  notInteractable,
  waitForActionPoint,
  type ClickOptions,
  type MouseButton,
} from './pointer.js';
import { callOn, type ElementTarget } from '../locate/remote-element.js';
import { toClickStep } from '../journal/action-log.js';

export type { ActionResult } from './action-scope.js';

export interface ClickInput extends ClickOptions {
  button?: MouseButton | undefined;
  clickCount?: number | undefined;
  modifiers?: ModifierName[] | undefined;
}

/**
 * The fast click: one page call checks and locates the element (scroll, visible, enabled, not covered),
 * then move/press/release go out back to back. A main-frame element by ref costs the ref lookup plus
 * two round trips; Playwright's click waits on each of its steps in turn.
 */
export async function clickElement(
  ctx: PageOperationContext,
  target: ElementTarget,
  input: ClickInput = {},
): Promise<void> {
  const pageSession = await ctx.page.cdp();
  const clickOnce = async (): Promise<void> => {
    const point = await waitForActionPoint(target, ctx.deadline, { checkEnabled: true, signal: ctx.signal });
    await dispatchClick(pageSession, point, input);
  };
  // An element in an out-of-process iframe lives behind another CDP session: check the click arrived.
  if (target.cdp !== pageSession) return clickCheckedAcrossProcesses(target, clickOnce);
  await clickOnce();
}

export function click(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
  input: ClickInput = {},
): Promise<ActionResult> {
  return performAction(ctx, async (scope) => {
    await scope.withTarget(spec, field, (target) => clickElement(ctx, target, input));
    scope.logAs(toClickStep(input));
    return {};
  });
}

export function hover(ctx: PageOperationContext, spec: TargetSpec, field: string): Promise<ActionResult> {
  return performAction(ctx, async (scope) => {
    await scope.withTarget(spec, field, async (target) => {
      const point = await waitForActionPoint(target, ctx.deadline, {
        checkEnabled: false,
        signal: ctx.signal,
      });
      await dispatchMove(await ctx.page.cdp(), point);
    });
    scope.logAs({ kind: 'hover' });
    return {};
  });
}

export function focus(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
  select?: { text: string; occurrence?: number | undefined },
): Promise<ActionResult> {
  return performAction(ctx, async (scope) => {
    await scope.withTarget(spec, field, (target) =>
      select
        ? selectTextIn(target, select.text, select.occurrence, redactorOf(ctx.session))
        : focusElement(target),
    );
    scope.logAs({ kind: 'focus' });
    return {};
  });
}

/**
 * Takes focus away from the element, as Playwright's `locator.blur()` does: the page sees blur and
 * focusout, so a field's validation on leaving it runs (and is awaited like any action's effect).
 */
export function blur(ctx: PageOperationContext, spec: TargetSpec, field: string): Promise<ActionResult> {
  return performAction(ctx, async (scope) => {
    await scope.withTarget(spec, field, async (target) => {
      const connected = await callOn<boolean>(target, BLUR).catch(() => false);
      if (!connected) throw new DetachedError('element detached');
    });
    scope.logAs({ kind: 'blur' });
    return {};
  });
}

const BLUR = `function () {
  if (!this.isConnected) return false;
  this.blur();
  return true;
}`;

/** Focuses the element; refuses elements that cannot take focus rather than pretending. */
export async function focusElement(target: ElementTarget): Promise<void> {
  const result = await callOn<{ ok: boolean; reason?: string }>(target, FOCUS).catch(() => ({
    ok: false,
    reason: 'detached',
  }));
  if (result.reason === 'detached') throw new DetachedError('element detached');
  if (!result.ok) {
    throw new BrowserMeshError(
      ErrorCodes.ELEMENT_NOT_INTERACTABLE,
      `The element (${target.description}) cannot take focus`,
      { details: { reason: result.reason ?? 'not_focusable' } },
    );
  }
}

export function scrollIntoView(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
): Promise<ActionResult> {
  return performAction(ctx, async (scope) => {
    await scope.withTarget(spec, field, async (target) => {
      const prepared = await actionPoint(target, false, false);
      if (!prepared.ok && prepared.reason === 'detached') throw new DetachedError('element detached');
      if (!prepared.ok) throw notInteractable(target, prepared);
    });
    scope.logAs({ kind: 'scrollIntoView' });
    return {};
  });
}

export const MAX_SCROLL_DELTA = 1_000_000;

export interface ScrollPosition {
  scrollX: number;
  scrollY: number;
  container: 'page' | 'element';
  /** The element that scrolled (`div#body-viewport`), when not the page. */
  scroller?: string;
}

/**
 * Scrolls the page, or the element's nearest scrollable container (itself included), by whole pixels.
 * Returns where that container ended up, so the agent knows whether it moved at all.
 */
export function scroll(
  ctx: PageOperationContext,
  spec: TargetSpec | undefined,
  field: string,
  deltaX: number,
  deltaY: number,
): Promise<ActionResult & ScrollPosition> {
  for (const [name, value] of [
    ['deltaX', deltaX],
    ['deltaY', deltaY],
  ] as const) {
    if (!Number.isInteger(value) || Math.abs(value) > MAX_SCROLL_DELTA)
      throw invalidArgument(name, `must be an integer within ±${MAX_SCROLL_DELTA}`);
  }
  return performAction(ctx, async (scope) => {
    if (!hasTarget(spec)) {
      const cdp = await ctx.page.cdp();
      const { result } = await cdp.send('Runtime.evaluate', {
        expression: `(${SCROLL_BY}).call(document.scrollingElement || document.documentElement, ${deltaX}, ${deltaY}, true)`,
        returnByValue: true,
      });
      return result.value as ScrollPosition;
    }
    return scope.withTarget(spec, field, async (target) => {
      const moved = await callOn<ScrollPosition | null>(target, SCROLL_BY, [deltaX, deltaY, false]).catch(
        () => null,
      );
      if (!moved) throw new DetachedError('element detached');
      return moved;
    });
  });
}
