import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { isLogging, recordStep } from '../journal/action-log.js';
import { describeTarget } from '../locate/best-locator.js';
import { resolveTarget } from '../locate/locate.js';
import type { TargetSpec } from '../locate/locator-spec.js';
import { releaseObjects } from '../locate/remote-element.js';

/**
 * What the agent read to check its work, as action-log steps: an exported spec turns them into
 * web-first assertions (export-checks.ts). Logging never fails the read it follows, and nothing is
 * logged when the action log is off.
 */

/** Characters of one checked text (longer ones are not asserted). */
const MAX_CHECK_CHARS = 200;
/** Headings and live regions kept per page read. */
const MAX_CHECKS = 2;

/** The texts a person checks a page by: its main heading, alerts and status regions (main frame). */
const SALIENT_TEXTS = `(() => {
  const out = [];
  const query = 'h1, [role=alert], [role=status], output, [aria-live=polite], [aria-live=assertive]';
  for (const el of document.querySelectorAll(query)) {
    if (el.getClientRects().length === 0) continue;
    const text = (el.innerText || '').replace(/\\s+/g, ' ').trim();
    if (text !== '' && text.length <= ${MAX_CHECK_CHARS} && !out.includes(text)) out.push(text);
    if (out.length >= ${MAX_CHECKS}) break;
  }
  return out;
})()`;

/** browser_get_url: the spec checks the page's URL. */
export function logUrlRead(ctx: PageOperationContext): void {
  if (isLogging(ctx)) recordStep(ctx, { kind: 'readUrl', url: ctx.page.page.url() });
}

/**
 * A whole-page read: the spec checks that the element the agent acts on next is visible and, for a
 * text read (`withTexts`), the page's heading and live regions.
 */
export async function logPageRead(ctx: PageOperationContext, withTexts: boolean): Promise<void> {
  if (!isLogging(ctx)) return;
  const values = withTexts ? await salientTexts(ctx) : [];
  recordStep(ctx, { kind: 'readPage', values });
}

async function salientTexts(ctx: PageOperationContext): Promise<string[]> {
  const frame = ctx.page.page.mainFrame();
  const read = frame.evaluate(SALIENT_TEXTS) as Promise<unknown>;
  const texts = await withDeadline(read, ctx.deadline, ctx.signal).catch(() => []);
  return Array.isArray(texts) ? texts.filter((t): t is string => typeof t === 'string') : [];
}

/**
 * An element the agent looked at (a find's first match, a scoped snapshot or text read): the spec
 * checks it is visible and, when `text` is given, that it holds that text.
 */
export async function logElementRead(
  ctx: PageOperationContext,
  spec: TargetSpec,
  text?: string,
): Promise<void> {
  if (!isLogging(ctx)) return;
  const element = await resolveTarget(ctx.page, spec, ctx.deadline, '', ctx.signal).catch(() => undefined);
  if (!element) return;
  try {
    const target = await describeTarget(ctx.page, element).catch(() => undefined);
    if (!target) return;
    const line = text?.split('\n').find((l) => l.trim() !== '');
    const value = line?.replace(/\s+/g, ' ').trim();
    const checked = value !== undefined && value.length <= MAX_CHECK_CHARS ? { value } : {};
    recordStep(ctx, { kind: 'readElement', targets: [target], ...checked });
  } finally {
    void releaseObjects([element.cdp, ...element.frameOwners.map((o) => o.cdp)]);
  }
}

/** The first ref a find's text lists (`1. [button @e12] Add to cart`). */
export function firstRefOf(findText: string): string | undefined {
  return /@e\d+/.exec(findText)?.[0];
}
