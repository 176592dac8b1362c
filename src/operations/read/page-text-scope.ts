import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { DetachedError } from '../act/pointer.js';
import { resolveTarget } from '../locate/locate.js';
import type { LocatorSpec } from '../locate/locator-spec.js';
import { callOn, releaseObjects } from '../locate/remote-element.js';
import { boundVisibleText, type VisibleTextResult } from './reading.js';

/** Text pulled out of the element before bounding, so a huge element costs little. */
const TEXT_CAP = 2_000_000;

const ELEMENT_TEXT = `function (cap) {
  if (!this.isConnected) return null;
  const text = typeof this.innerText === 'string' ? this.innerText : (this.textContent || '');
  return text.length > cap ? text.slice(0, cap) : text;
}`;

/**
 * browser_visible_text scoped by a locator: the rendered text of the element it finds, in any frame
 * its `frame` chain reaches (same-origin, cross-origin, nested), bounded like the page's. A locator of
 * `{css: 'body', frame}` reads one frame alone.
 */
export async function visibleTextOfLocator(
  ctx: PageOperationContext,
  locator: LocatorSpec,
  limits: { maxChars: number; maxBytes: number },
): Promise<VisibleTextResult> {
  const read = async (): Promise<string> => {
    const element = await resolveTarget(ctx.page, { locator }, ctx.deadline, 'scope', ctx.signal);
    try {
      const text = await callOn<string | null>(element, ELEMENT_TEXT, [TEXT_CAP]).catch(() => null);
      if (text === null) throw new DetachedError('element detached');
      return text;
    } finally {
      void releaseObjects([element.cdp, ...element.frameOwners.map((o) => o.cdp)]);
    }
  };
  return boundVisibleText(await withDeadline(read(), ctx.deadline, ctx.signal), limits);
}
