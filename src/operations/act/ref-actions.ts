import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { resolveRef, type ResolvedRef } from '../locate/ref-target.js';
import { staleRef } from '../../snapshot/resolve.js';
import { normalizeRef } from '../../snapshot/refs.js';
import { performAction, type ActionResult } from './action-scope.js';
import { clickElement, type ClickInput } from './actions.js';
import { fillElement } from './forms.js';
import { DetachedError } from './pointer.js';
import { boundVisibleText, type VisibleTextResult } from '../../text.js';
import { callOn, releaseObjects } from '../locate/remote-element.js';

/**
 * Snapshot refs as action targets. `resolveRef` is the one way from `@e5` to a live element: the
 * browser's node identity in the right CDP target (page or out-of-process iframe), checked against
 * the document it was seen in, plus the iframe elements above it (which turn a point in its frame
 * into a point in the page). Stale refs fail loudly; nothing is re-guessed.
 */

export { resolveRef, type ResolvedRef, type ResolveRefOptions } from '../locate/ref-target.js';

/** Clicks the element a ref names (scrolled into view, visible, enabled, not covered). */
export function clickRef(
  ctx: PageOperationContext,
  ref: string,
  input: ClickInput = {},
): Promise<ActionResult> {
  return performAction(ctx, async () => {
    await withRef(ctx, ref, (target) => clickElement(ctx, target, input));
    return {};
  });
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

const READ_VALUE = `function () {
  if (!this.isConnected) return null;
  return 'value' in this && typeof this.value === 'string' ? this.value : this.textContent;
}`;

const ELEMENT_TEXT = `function (cap) {
  if (!this.isConnected) return null;
  const text = typeof this.innerText === 'string' ? this.innerText : (this.textContent || '');
  return { text: text.length > cap ? text.slice(0, cap) : text, length: text.length };
}`;
