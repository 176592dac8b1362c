import type { PageOperationContext } from '../../engine/runtime.js';
import { readPageText } from './page-text.js';
import { boundVisibleText, type VisibleTextResult } from '../../text.js';
import { titleLine } from '../../redaction/session-redact.js';

export { boundVisibleText, type VisibleTextResult };

/** Hard cap on what is pulled out of the page before bounding, so a huge page costs little. */
const PAGE_SIDE_CAP = 2_000_000;

export async function getUrl(ctx: PageOperationContext): Promise<{ url: string }> {
  return { url: ctx.page.page.url() };
}

export async function getTitle(ctx: PageOperationContext): Promise<{ title: string }> {
  // The page chooses its title: controls, NUL and bidi overrides are removed and the length bounded.
  return { title: titleLine(ctx.session, await ctx.page.page.title()) };
}

/**
 * The page's rendered text as a person reads it — open shadow roots included, then each shown iframe
 * (same-origin or not) after a blank line — bounded by code points and UTF-8 bytes. The original size
 * is reported so a caller can tell complete evidence from a prefix.
 */
export async function visibleText(
  ctx: PageOperationContext,
  limits: { maxChars: number; maxBytes: number },
): Promise<VisibleTextResult> {
  return boundVisibleText(await readPageText(ctx, PAGE_SIDE_CAP), limits);
}
