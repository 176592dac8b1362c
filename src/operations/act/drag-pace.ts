import { callOn, type ElementTarget } from '../locate/remote-element.js';
import type { DropPosition } from './drop-point.js';

/**
 * The pace of a synthetic drag. Libraries that reorder on dragover (sortable lists) move items with
 * animations and ignore dragover for a moment after each move: events sent back to back are lost
 * after the first swap. So every move waits for the page's next frame, and the last dragover and the
 * drop wait until the page stands still.
 */

/** Resolves on the element's window's next animation frame (a timer stands in where frames are throttled). */
const NEXT_FRAME = `function () {
  const win = this.ownerDocument.defaultView;
  return new Promise((done) => { win.requestAnimationFrame(() => done(true)); setTimeout(() => done(true), 100); });
}`;

/**
 * Resolves once the element's box has not changed for STILL frames in a row (animations done), or
 * after a second at most: a page that never stands still is dropped on as it is.
 */
const STAND_STILL = `function (still) {
  const el = this, win = el.ownerDocument.defaultView;
  const start = performance.now();
  return new Promise((done) => {
    let last = '', same = 0;
    const tick = () => {
      const r = el.getBoundingClientRect();
      const key = [r.left, r.top, r.width, r.height].join();
      same = key === last ? same + 1 : 0;
      last = key;
      if (same >= still || performance.now() - start > 1000 || !el.isConnected) return done(true);
      let fired = false;
      const next = () => { if (!fired) { fired = true; tick(); } };
      win.requestAnimationFrame(next);
      setTimeout(next, 50);
    };
    tick();
  });
}`;

/**
 * Where the dragged element sits against the target: 'before' or 'after' it, 'apart' (same list, not
 * next to it: it went past), or unknown. In one list only a neighbour counts; elsewhere, document order.
 */
const ORDER = `function (target) {
  if (!target || this === target || !this.isConnected) return 'unknown';
  if (this.parentNode === target.parentNode) {
    return this.nextElementSibling === target ? 'before' : this.previousElementSibling === target ? 'after' : 'apart';
  }
  const pos = target.compareDocumentPosition(this);
  if (pos & Node.DOCUMENT_POSITION_CONTAINED_BY || pos & Node.DOCUMENT_POSITION_CONTAINS) return 'unknown';
  return pos & Node.DOCUMENT_POSITION_PRECEDING ? 'before' : pos & Node.DOCUMENT_POSITION_FOLLOWING ? 'after' : 'unknown';
}`;

const STILL_FRAMES = 3;

/** The element's box as a comparable key ('' when it cannot be read). */
export async function boxOf(element: ElementTarget): Promise<string> {
  const fn =
    'function () { const r = this.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].join(); }';
  return callOn<string>(element, fn).catch(() => '');
}

export async function nextFrame(element: ElementTarget): Promise<void> {
  await callOn(element, NEXT_FRAME).catch(() => undefined);
}

/** Waits until neither element moves any more (each in its own frame). */
export async function standStill(...elements: ElementTarget[]): Promise<void> {
  await Promise.all(elements.map((el) => callOn(el, STAND_STILL, [STILL_FRAMES]).catch(() => undefined)));
}

/**
 * Whether the dragged element must still be moved to the `position` side of the target: a sortable
 * list that moved it to the other side (it inserts after an item passed going down, before one passed
 * going up), or past the target's neighbour. Only for elements of one document; unknown counts as placed.
 */
export async function onWrongSide(
  source: ElementTarget,
  target: ElementTarget,
  position: DropPosition | undefined,
): Promise<boolean> {
  if ((position !== 'before' && position !== 'after') || source.cdp !== target.cdp) return false;
  const { result } = await source.cdp
    .send('Runtime.callFunctionOn', {
      objectId: source.objectId,
      functionDeclaration: ORDER,
      arguments: [{ objectId: target.objectId }],
      returnByValue: true,
    })
    .catch(() => ({ result: { value: 'unknown' } }));
  const side: unknown = result.value;
  return side !== 'unknown' && side !== position;
}
