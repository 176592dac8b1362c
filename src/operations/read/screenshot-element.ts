import { BrowserMeshError, ErrorCodes, invalidArgument, isBrowserMeshError } from '../../errors.js';
import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { ActionScope } from '../act/action-scope.js';
import type { BuiltLocator, LocatorSpec, TargetSpec } from '../locate/locator-spec.js';
import { DetachedError } from '../act/pointer.js';
import { callOn, type ElementTarget } from '../locate/remote-element.js';

/** One element to capture: by CSS, a snapshot ref, a semantic locator, or (library faces) a built locator. */
export interface ElementCapture {
  css?: string | undefined;
  ref?: string | undefined;
  locator?: LocatorSpec | undefined;
  built?: BuiltLocator | undefined;
}

/** An area in page CSS pixels (scroll offset included), as a full-page clip expects. */
export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An element's area, and the same area in viewport pixels when it lies wholly inside the viewport. */
export interface ElementArea extends Area {
  inViewport?: Area | undefined;
}

type Box =
  | { ok: true; x: number; y: number; w: number; h: number; sx: number; sy: number; vw: number; vh: number }
  | { ok: false };

// Inside an iframe only the part showing through it can be captured: the element is scrolled into
// its frame's view and clipped to it. A main-frame element is not scrolled (the full-page capture
// renders beyond the viewport).
const ELEMENT_BOX = `function (inFrame) {
  if (!this.isConnected) return { ok: false };
  const win = this.ownerDocument.defaultView;
  if (inFrame) {
    if (this.scrollIntoViewIfNeeded) this.scrollIntoViewIfNeeded(true); else this.scrollIntoView({ block: 'center', inline: 'center' });
  }
  const r = this.getBoundingClientRect();
  let x0 = r.left, y0 = r.top, x1 = r.right, y1 = r.bottom;
  if (inFrame) { x0 = Math.max(x0, 0); y0 = Math.max(y0, 0); x1 = Math.min(x1, win.innerWidth); y1 = Math.min(y1, win.innerHeight); }
  return { ok: true, x: x0, y: y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0), sx: win.scrollX, sy: win.scrollY, vw: win.innerWidth, vh: win.innerHeight };
}`;

// After scrolling inside a frame, that frame's renderer (another process for a cross-origin frame)
// must paint the new scroll position before the page is captured: two animation frames in the
// target's own document, bounded so a throttled frame cannot hold the capture.
const FRAME_PAINTED = `function () {
  const win = this.ownerDocument.defaultView;
  return new Promise((done) => {
    const timer = setTimeout(done, 500);
    win.requestAnimationFrame(() => win.requestAnimationFrame(() => { clearTimeout(timer); done(); }));
  });
}`;

/** Run on an iframe element: a box in its content's viewport → the box in the iframe's own viewport, clipped to its content box. */
const FRAME_BOX = `function (x, y, w, h) {
  if (!this.isConnected) return { ok: false };
  const win = this.ownerDocument.defaultView, cs = win.getComputedStyle(this), r = this.getBoundingClientRect();
  const pl = parseFloat(cs.paddingLeft), pt = parseFloat(cs.paddingTop);
  const left = r.left + this.clientLeft + pl, top = r.top + this.clientTop + pt;
  const right = left + this.clientWidth - pl - parseFloat(cs.paddingRight);
  const bottom = top + this.clientHeight - pt - parseFloat(cs.paddingBottom);
  const x0 = Math.max(left + x, left), y0 = Math.max(top + y, top);
  const x1 = Math.min(left + x + w, right), y1 = Math.min(top + y + h, bottom);
  return { ok: true, x: x0, y: y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0), sx: win.scrollX, sy: win.scrollY, vw: win.innerWidth, vh: win.innerHeight };
}`;

/**
 * The element's area in page coordinates. It is found exactly as the interaction tools find their
 * targets (ActionScope → resolveTarget): a gone ref fails STALE_ELEMENT_REFERENCE, a locator that
 * matches nothing ELEMENT_NOT_FOUND after the short appear window, two matches LOCATOR_AMBIGUOUS.
 */
export async function measureElement(
  ctx: PageOperationContext,
  capture: ElementCapture,
): Promise<ElementArea> {
  const given = [capture.css, capture.ref, capture.locator, capture.built].filter((v) => v !== undefined);
  if (given.length !== 1) {
    throw invalidArgument('capture', `give exactly one of css, ref or locator (got ${given.length})`);
  }
  const spec: TargetSpec =
    capture.css !== undefined
      ? { locator: { css: capture.css } }
      : { ref: capture.ref, locator: capture.locator, built: capture.built };
  const scope = new ActionScope(ctx);
  try {
    const box = await withDeadline(
      scope.withTarget(spec, 'capture', measureTarget),
      ctx.deadline,
      ctx.signal,
    );
    return toArea(box);
  } catch (error) {
    // A CSS capture is resolved as a {css} locator: errors name the field the caller sent.
    if (
      capture.css !== undefined &&
      isBrowserMeshError(error) &&
      error.details?.field === 'capture.locator'
    ) {
      throw new BrowserMeshError(error.code, error.message, {
        details: { ...error.details, field: 'capture.css' },
        ...(error.recoveryHint === undefined ? {} : { recoveryHint: error.recoveryHint }),
      });
    }
    throw error;
  } finally {
    scope.release();
  }
}

async function measureTarget(target: ElementTarget): Promise<Box & { ok: true }> {
  const inFrame = target.frameOwners.length > 0;
  let box = await callOn<Box>(target, ELEMENT_BOX, [inFrame]).catch((): Box => ({ ok: false }));
  if (inFrame && box.ok) await callOn(target, FRAME_PAINTED, []).catch(() => undefined);
  for (let i = target.frameOwners.length - 1; i >= 0 && box.ok; i--) {
    const owner = target.frameOwners[i];
    if (!owner) break;
    const { x, y, w, h } = box;
    box = await callOn<Box>(owner, FRAME_BOX, [x, y, w, h]).catch((): Box => ({ ok: false }));
  }
  if (!box.ok) throw new DetachedError('element detached');
  if (box.w < 1 || box.h < 1) {
    throw new BrowserMeshError(
      ErrorCodes.ELEMENT_NOT_INTERACTABLE,
      `The element (${target.description}) has no visible area`,
      { details: { reason: 'not_visible' } },
    );
  }
  return box;
}

/**
 * Viewport box of the top document → page coordinates in whole pixels. Edges are rounded, not
 * floored and ceiled: an element at a fractional offset keeps its own size instead of gaining a
 * pixel of its surroundings on two sides. An element wholly inside the viewport also gets its
 * viewport area: capturing it there needs no beyond-viewport render, which re-lays the page out
 * and can catch an out-of-process iframe before it has painted again (a blank area).
 */
function toArea(box: Box & { ok: true }): ElementArea {
  const x = Math.round(box.x + box.sx);
  const y = Math.round(box.y + box.sy);
  const width = Math.max(1, Math.round(box.x + box.sx + box.w) - x);
  const height = Math.max(1, Math.round(box.y + box.sy + box.h) - y);
  const vx = x - Math.round(box.sx);
  const vy = y - Math.round(box.sy);
  const visible = vx >= 0 && vy >= 0 && vx + width <= box.vw && vy + height <= box.vh;
  return { x, y, width, height, inViewport: visible ? { x: vx, y: vy, width, height } : undefined };
}
