import { randomBytes } from 'node:crypto';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { callOn, type ElementTarget } from '../locate/remote-element.js';

/**
 * A click into an out-of-process iframe, checked on arrival. Right after a load, Chromium can route
 * input for a fresh out-of-process frame to its parent (the iframe element gets the click, the
 * element never does) although the page-side checks all passed. The element's frame watches for the
 * click's events; when none arrived, the click is sent once more after the top document painted. A
 * click that navigated the frame cannot be read back and counts as received.
 */
export async function clickCheckedAcrossProcesses(
  target: ElementTarget,
  click: () => Promise<void>,
): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const key = `__bm${randomBytes(9).toString('hex')}`;
    await callOn(target, ARM_HIT_CHECK, [key]);
    await click();
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
