import type { CDPSession } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { Deadline } from '../../engine/deadline.js';
import { MODIFIER_BITS } from './key-layout.js';
import { toModifiers, type ModifierName } from './keyboard.js';
import { PREPARE_POINTER, TRANSLATE_THROUGH_FRAME } from '../locate/page-functions.js';
import { callOn, type ElementTarget } from '../locate/remote-element.js';

export interface Point {
  x: number;
  y: number;
}

type Prepared =
  { ok: true; x: number; y: number } | { ok: false; reason: NotActionableReason; coveredBy?: string };
export type NotActionableReason = 'detached' | 'not_visible' | 'disabled' | 'covered' | 'outside_viewport';

/** How long an element that is not yet actionable (still disabled, animating in, covered) gets to become so. */
export const ACTIONABLE_WINDOW_MS = 1000;
const RETRY_DELAYS_MS = [20, 40, 80, 100];

/** Raised when the element went away under the action: a locator can be resolved again, a ref is stale. */
export class DetachedError extends Error {
  override readonly name = 'DetachedError';
}

/**
 * The point in the page's viewport where a pointer action lands: the element's own frame does the
 * scroll, visibility, enabled and hit checks in one call; each iframe on the way up translates the
 * point and checks nothing in its document covers it. Main-frame elements cost one round trip.
 */
export async function actionPoint(
  target: ElementTarget,
  checkEnabled: boolean,
  hitTest = true,
): Promise<Prepared> {
  let prepared = await callOn<Prepared>(target, PREPARE_POINTER, [checkEnabled, hitTest]).catch(() =>
    detached(),
  );
  for (let i = target.frameOwners.length - 1; i >= 0 && prepared.ok; i--) {
    const owner = target.frameOwners[i];
    if (!owner) break;
    prepared = await callOn<Prepared>(owner, TRANSLATE_THROUGH_FRAME, [
      prepared.x,
      prepared.y,
      hitTest,
    ]).catch(() => detached());
  }
  return prepared;
}

function detached(): Prepared {
  return { ok: false, reason: 'detached' };
}

/**
 * Waits (briefly, within the deadline) for the element to become actionable, then returns the point.
 * A still-disabled, hidden or covered element fails with ELEMENT_NOT_INTERACTABLE naming the reason
 * and, when covered, the covering element (e.g. `div#cookie-banner`).
 */
export async function waitForActionPoint(
  target: ElementTarget,
  deadline: Deadline,
  options: { checkEnabled: boolean; hitTest?: boolean; signal?: AbortSignal },
): Promise<Point> {
  const windowEnd = Date.now() + Math.min(ACTIONABLE_WINDOW_MS, deadline.remainingMs());
  for (let attempt = 0; ; attempt++) {
    const prepared = await actionPoint(target, options.checkEnabled, options.hitTest ?? true);
    if (prepared.ok) return { x: prepared.x, y: prepared.y };
    if (prepared.reason === 'detached') throw new DetachedError('element detached');
    const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)] ?? 100;
    if (Date.now() + delay >= windowEnd || options.signal?.aborted) throw notInteractable(target, prepared);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

export function notInteractable(
  target: ElementTarget,
  prepared: Exclude<Prepared, { ok: true }>,
): BrowserMeshError {
  const why: Record<NotActionableReason, string> = {
    detached: 'is no longer in the page',
    not_visible: 'is not visible',
    disabled: 'is disabled',
    covered: `is covered by ${prepared.coveredBy ?? 'another element'}`,
    outside_viewport: 'cannot be scrolled into view',
  };
  return new BrowserMeshError(
    ErrorCodes.ELEMENT_NOT_INTERACTABLE,
    `The element (${target.description}) ${why[prepared.reason]}`,
    {
      details: { reason: prepared.reason, ...(prepared.coveredBy ? { coveredBy: prepared.coveredBy } : {}) },
      recoveryHint:
        prepared.reason === 'covered'
          ? 'Close or accept the covering element first (e.g. a cookie banner).'
          : 'Wait for the element with browser_wait, then retry.',
    },
  );
}

export type MouseButton = 'left' | 'right' | 'middle';
const BUTTON_BITS: Record<MouseButton, number> = { left: 1, right: 2, middle: 4 };

export interface ClickOptions {
  button?: MouseButton | undefined;
  clickCount?: number | undefined;
  modifiers?: readonly ModifierName[] | undefined;
}

function modifierMask(modifiers: readonly ModifierName[] = []): number {
  return toModifiers(modifiers).reduce((mask, m) => mask | MODIFIER_BITS[m], 0);
}

/**
 * Move, then press and release `clickCount` times, sent back to back: CDP runs one session's input
 * events in order, so the page sees a normal click sequence while the whole click costs one round trip.
 */
export async function dispatchClick(
  root: CDPSession,
  point: Point,
  options: ClickOptions = {},
): Promise<void> {
  const button = options.button ?? 'left';
  const modifiers = modifierMask(options.modifiers);
  const events: MouseEventParams[] = [{ type: 'mouseMoved', x: point.x, y: point.y, modifiers }];
  for (let n = 1; n <= (options.clickCount ?? 1); n++) {
    const common = { x: point.x, y: point.y, modifiers, button, clickCount: n };
    events.push(
      { ...common, type: 'mousePressed', buttons: BUTTON_BITS[button] },
      { ...common, type: 'mouseReleased', buttons: 0 },
    );
  }
  await sendAll(root, events);
}

export async function dispatchMove(root: CDPSession, point: Point, buttons = 0): Promise<void> {
  await root.send('Input.dispatchMouseEvent', {
    type: 'mouseMoved',
    x: point.x,
    y: point.y,
    buttons,
    ...(buttons ? { button: 'left' as const } : {}),
  });
}

/** The fields of CDP's Input.dispatchMouseEvent that BrowserMesh sends. */
interface MouseEventParams {
  type: 'mouseMoved' | 'mousePressed' | 'mouseReleased';
  x: number;
  y: number;
  modifiers?: number;
  button?: MouseButton;
  buttons?: number;
  clickCount?: number;
}

async function sendAll(root: CDPSession, events: MouseEventParams[]): Promise<void> {
  await Promise.all(events.map((event) => root.send('Input.dispatchMouseEvent', event)));
}
