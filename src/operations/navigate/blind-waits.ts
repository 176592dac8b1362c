import { setTimeout as delay } from 'node:timers/promises';
import type { Locator } from 'playwright-core';
import type { PageOperationContext } from '../../engine/runtime.js';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { redactInside } from '../../redaction/session-redact.js';
import { ambiguous } from '../read/element-reads.js';
import { normalizeText, readPageText, waitForPageText } from '../read/page-text.js';
import type { ElementState } from './wait-condition.js';

/**
 * Waits seen with the session's secrets redacted (docs/security.md, "No match oracles"): a text, or a
 * text locator's match, counts as shown only where it still shows once every secret on the page reads
 * as its `{{secret:NAME}}` reference — the same redaction browser_find's tree and code mode's
 * getByText counts match against. Whether such a wait ends, and how it fails, then says nothing about
 * a secret: a guess inside one waits out its deadline exactly like a guess outside it.
 */

/** Between re-reads while the page's raw text shows a text its redacted text does not. */
const RECHECK_MS = 250;

/**
 * The texts (normalized) shown once the page's text is redacted: when one is (present) or once none
 * is (absent). The page's own watcher says when to look for a present text; the redacted read decides.
 */
export async function waitForRedactedText(
  ctx: PageOperationContext,
  texts: string[],
  present: boolean,
  maxCharsPerFrame: number,
): Promise<string[]> {
  for (;;) {
    if (present) await waitForPageText(ctx, { texts, present, maxCharsPerFrame });
    const text = normalizeText(redactInside(ctx.session, await readPageText(ctx, maxCharsPerFrame)));
    const shown = texts.filter((wanted) => text.includes(wanted));
    if (present ? shown.length > 0 : shown.length === 0) return shown;
    await pause(ctx, RECHECK_MS);
  }
}

/**
 * Whether `state` holds for the locator's counted matches (the uncounted are as if absent). Several
 * counted matches are LOCATOR_AMBIGUOUS, as a strict wait's would be.
 */
export async function countedStateHolds(
  ctx: PageOperationContext,
  locator: Locator,
  counted: (locator: Locator) => Promise<boolean[]>,
  state: ElementState,
  description: string,
): Promise<boolean> {
  const left = (await counted(locator)).flatMap((keep, index) => (keep ? [index] : []));
  if (left.length > 1) throw ambiguous(description, left.length, 'locator');
  const [only] = left;
  if (only === undefined) return state === 'detached' || state === 'hidden';
  const element = locator.nth(only);
  switch (state) {
    case 'attached':
      return true;
    case 'detached':
      return false;
    case 'visible':
    case 'hidden':
      return (await element.isVisible().catch(() => false)) === (state === 'visible');
    case 'enabled':
    case 'disabled': {
      const timeout = Math.min(RECHECK_MS, ctx.deadline.stepTimeoutMs());
      const enabled = await element.isEnabled({ timeout }).catch(() => undefined);
      return enabled !== undefined && enabled === (state === 'enabled');
    }
  }
}

/** Throws OPERATION_TIMEOUT once due, else sleeps `ms` (never past the deadline); OPERATION_CANCELLED on abort. */
export async function pause(ctx: PageOperationContext, ms: number): Promise<void> {
  ctx.deadline.check();
  await delay(Math.min(ms, ctx.deadline.remainingMs()), undefined, { signal: ctx.signal }).catch(
    () => undefined,
  );
  if (ctx.signal.aborted)
    throw new BrowserMeshError(ErrorCodes.OPERATION_CANCELLED, 'Operation was cancelled by the caller');
}
