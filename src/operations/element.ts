import { randomBytes } from 'node:crypto';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { Deadline } from '../engine/deadline.js';
import type { ManagedPage } from '../engine/page.js';
import { withDeadline, type PageOperationContext } from '../engine/runtime.js';
import { locateRef, staleRef } from '../snapshot/resolve.js';
import { normalizeRef } from '../snapshot/refs.js';
import { performAction, type ActionResult } from './action-scope.js';
import { clickElement, type ClickInput } from './actions.js';
import { fillElement } from './forms.js';
import { DetachedError } from './pointer.js';
import { boundVisibleText, type VisibleTextResult } from './reading.js';
import { callOn, OBJECT_GROUP, releaseObjects, type ElementTarget } from './remote-element.js';

/**
 * Snapshot refs as action targets. `resolveRef` is the one way from `@e5` to a live element: the
 * browser's node identity in the right CDP target (page or out-of-process iframe), checked against
 * the document it was seen in, plus the iframe elements above it (which turn a point in its frame
 * into a point in the page). Stale refs fail loudly; nothing is re-guessed.
 */

export interface ResolvedRef extends ElementTarget {
  /** '@e5' */
  ref: string;
  backendNodeId: number;
  /** CDP frame id of the element's document, and 'main' or the out-of-process iframe's frame id. */
  frameId: string;
  targetKey: string;
}

export interface ResolveRefOptions {
  signal?: AbortSignal | undefined;
  /** Field named in errors, e.g. 'ref' or 'target.ref'. */
  field?: string | undefined;
}

/**
 * @example
 * const el = await resolveRef(ctx.page, '@e5', ctx.deadline);
 * const point = await waitForActionPoint(el, ctx.deadline, { checkEnabled: true });
 */
export async function resolveRef(
  page: ManagedPage,
  ref: string,
  deadline: Deadline,
  options: ResolveRefOptions = {},
): Promise<ResolvedRef> {
  const located = await locateRef(page, ref, {
    step: () => ({ timeout: deadline.stepTimeoutMs(), signal: options.signal }),
    objectGroup: OBJECT_GROUP,
    field: options.field ?? 'ref',
  });
  const { entry } = located;
  return {
    cdp: located.session,
    objectId: located.objectId,
    frameOwners: located.owners.map((o) => ({ cdp: o.session, objectId: o.objectId })),
    description: `ref @${entry.ref}`,
    ref: `@${entry.ref}`,
    backendNodeId: entry.backendNodeId,
    frameId: entry.frameId,
    targetKey: entry.targetKey,
  };
}

/** Clicks the element a ref names (scrolled into view, visible, enabled, not covered). */
export function clickRef(
  ctx: PageOperationContext,
  ref: string,
  input: ClickInput = {},
): Promise<ActionResult> {
  return performAction(ctx, async () => {
    await withRef(ctx, ref, (target) =>
      target.targetKey === 'main'
        ? clickElement(ctx, target, input)
        : clickAcrossProcesses(ctx, target, input),
    );
    return {};
  });
}

/**
 * A click into an out-of-process iframe, checked on arrival. Right after a load, Chromium can route
 * input for a fresh out-of-process frame to its parent (the iframe element gets the click, the
 * element never does) although the page-side checks all passed. The element's frame watches for the
 * click's events; when none arrived, the click is sent once more. A click that navigated the frame
 * cannot be read back and counts as received.
 */
async function clickAcrossProcesses(
  ctx: PageOperationContext,
  target: ResolvedRef,
  input: ClickInput,
): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const key = `__bm${randomBytes(9).toString('hex')}`;
    await callOn(target, ARM_HIT_CHECK, [key]);
    await clickElement(ctx, target, input);
    const received = await callOn<boolean>(target, READ_HIT_CHECK, [key]).catch(() => true);
    if (received) return;
    // Chromium routes input by the hit-test regions of the last frame the page painted; a painted
    // frame in the top document brings the new iframe's region in.
    const top = target.frameOwners[0];
    if (top) await callOn(top, AFTER_NEXT_PAINT).catch(() => undefined);
  }
  throw new BrowserMeshError(
    ErrorCodes.ELEMENT_NOT_INTERACTABLE,
    `The element (${target.description}) did not receive the click`,
    {
      details: { reason: 'click_not_received' },
      recoveryHint: 'The frame may still be loading; retry the click.',
    },
  );
}

/**
 * Replaces the content of the input, textarea or contenteditable a ref names, then reads it back:
 * `valueMatches` is false when the page rejected or reformatted the text (a number field given
 * letters, an input mask). The text itself is never echoed.
 */
export function fillRef(
  ctx: PageOperationContext,
  ref: string,
  text: string,
): Promise<ActionResult & { valueMatches: boolean }> {
  return performAction(ctx, () =>
    withRef(ctx, ref, async (target) => {
      await fillElement(ctx, target, text);
      const value = await callOn<string | null>(target, READ_VALUE).catch(() => null);
      return { valueMatches: value === text };
    }),
  );
}

/** The rendered text (`innerText`) of the element a ref names, up to `maxChars` UTF-16 units, and its full length. */
export async function refText(
  ctx: PageOperationContext,
  ref: string,
  maxChars: number,
): Promise<{ text: string; length: number }> {
  return withRef(ctx, ref, async (target) => {
    const result = await callOn<{ text: string; length: number } | null>(target, ELEMENT_TEXT, [
      maxChars,
    ]).catch(() => null);
    if (!result) throw new DetachedError('element detached');
    return result;
  });
}

/** Text pulled out of the element before bounding, so a huge element costs little. */
const ELEMENT_TEXT_CAP = 2_000_000;

/** browser_visible_text scoped to one element: its rendered text, bounded like the page's. */
export async function visibleTextOfRef(
  ctx: PageOperationContext,
  ref: string,
  limits: { maxChars: number; maxBytes: number },
): Promise<VisibleTextResult> {
  const { text } = await withDeadline(refText(ctx, ref, ELEMENT_TEXT_CAP), ctx.deadline, ctx.signal);
  return boundVisibleText(text, limits);
}

async function withRef<R>(
  ctx: PageOperationContext,
  ref: string,
  act: (target: ResolvedRef) => Promise<R>,
): Promise<R> {
  const target = await resolveRef(ctx.page, ref, ctx.deadline, { signal: ctx.signal });
  try {
    return await act(target);
  } catch (error) {
    if (error instanceof DetachedError) throw staleRef(normalizeRef(ref) ?? ref, 'detached');
    throw error;
  } finally {
    void releaseObjects([target.cdp, ...target.frameOwners.map((o) => o.cdp)]);
  }
}

/** Watches (capture phase, in the element's own frame) whether the click's events reach the element. */
const ARM_HIT_CHECK = `function (key) {
  const el = this, win = el.ownerDocument.defaultView;
  const state = { hit: false };
  const seen = (e) => { if (e.composedPath().includes(el)) state.hit = true; };
  const types = ['pointerdown', 'mousedown', 'click'];
  for (const type of types) win.addEventListener(type, seen, true);
  const off = () => { for (const type of types) win.removeEventListener(type, seen, true); };
  Object.defineProperty(win, key, { value: { state, off }, configurable: true, enumerable: false });
  return true;
}`;

const READ_HIT_CHECK = `function (key) {
  const win = this.ownerDocument.defaultView, watch = win && win[key];
  if (!watch) return true;
  watch.off();
  delete win[key];
  return watch.state.hit;
}`;

/** Resolves after two animation frames of this element's document, i.e. after a frame was painted. */
const AFTER_NEXT_PAINT = `function () {
  const win = this.ownerDocument.defaultView;
  return new Promise((resolve) => win.requestAnimationFrame(() => win.requestAnimationFrame(() => resolve(true))));
}`;

const READ_VALUE = `function () {
  if (!this.isConnected) return null;
  return 'value' in this && typeof this.value === 'string' ? this.value : this.textContent;
}`;

const ELEMENT_TEXT = `function (cap) {
  if (!this.isConnected) return null;
  const text = typeof this.innerText === 'string' ? this.innerText : (this.textContent || '');
  return { text: text.length > cap ? text.slice(0, cap) : text, length: text.length };
}`;
