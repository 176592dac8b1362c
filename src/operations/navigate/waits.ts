import type { Frame, Locator } from 'playwright-core';
import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../../errors.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { toBrowserError, withDeadline } from '../../engine/runtime.js';
import { matchOffLoop, toRegexPattern } from '../../engine/regex-worker.js';
import { takeDialogNotes, type DialogNote } from '../page-services/dialogs.js';
import { checkLocator, toChainedLocator, type TargetSpec } from '../locate/locator-spec.js';
import { ELEMENT_STATE } from '../locate/page-functions.js';
import { toTextList, waitForPageText } from '../read/page-text.js';
import { resolveRefTarget } from '../locate/ref-target.js';
import { callOn, releaseObjects } from '../locate/remote-element.js';
import { compileUrlPattern, globRegex } from '../locate/url-match.js';
import type { ElementState, WaitCondition } from './wait-condition.js';
import { logWait } from './wait-log.js';
import { hasSecrets } from '../../redaction/session-redact.js';
import { countedStateHolds, pause, waitForRedactedText } from './blind-waits.js';

export type { ElementState, WaitCondition } from './wait-condition.js';

export interface WaitResult {
  satisfied: true;
  elapsedMs: number;
  /** For a present-text wait: the first of the given texts (as given) that is shown. */
  matched?: string;
  dialogs?: DialogNote[];
}

export const MAX_TEXT_CHARS = 1_000_000;
/** Between element-state checks for enabled/disabled and refs (the others are event-driven). */
const POLL_MS = 50;

/**
 * Waits for one passive condition and returns the moment it holds. URL and load state follow the
 * page's own events; element states use Playwright's waits (re-resolved through frame chains);
 * text re-checks on DOM mutations. A condition still false at the deadline is OPERATION_TIMEOUT.
 */
export async function waitForCondition(
  ctx: PageOperationContext,
  condition: WaitCondition,
): Promise<WaitResult> {
  const started = Date.now();
  const page = ctx.page.page;
  let matched: string | undefined;
  const options = { timeout: ctx.deadline.stepTimeoutMs(), signal: ctx.signal };
  try {
    switch (condition.kind) {
      case 'url':
        await waitForUrl(ctx, condition.pattern);
        break;
      case 'loadState':
        await page.waitForLoadState(condition.state, options);
        break;
      case 'text':
        matched = await waitForText(ctx, condition.texts, condition.present);
        break;
      case 'element':
        await waitForElement(ctx, condition.target, condition.state, condition.counted);
        break;
    }
  } catch (error) {
    throw toWaitError(error);
  }
  await logWait(ctx, condition, matched);
  const dialogs = takeDialogNotes(ctx.page);
  return {
    satisfied: true,
    elapsedMs: Date.now() - started,
    ...(matched !== undefined ? { matched } : {}),
    ...(dialogs.length > 0 ? { dialogs } : {}),
  };
}

/**
 * Resolves with the first given text that is shown (present), or undefined once none is (absent). In a
 * session with secrets the page's text is matched as it reads redacted (blind-waits.ts).
 */
async function waitForText(
  ctx: PageOperationContext,
  texts: string[],
  present: boolean,
): Promise<string | undefined> {
  const normalized = toTextList(texts, 'text');
  const found = hasSecrets(ctx.session)
    ? await waitForRedactedText(ctx, normalized, present, MAX_TEXT_CHARS)
    : await waitForPageText(ctx, { texts: normalized, present, maxCharsPerFrame: MAX_TEXT_CHARS });
  if (!present) return undefined;
  const first = found[0];
  return first === undefined ? undefined : texts[normalized.indexOf(first)];
}

/**
 * Resolves once the main frame's URL matches, checked now and at each commit of the main frame. An
 * exact URL is compared here; a glob or a RegExp runs on a worker thread (the page chooses the URL's
 * length), within the call's deadline.
 */
async function waitForUrl(
  ctx: PageOperationContext,
  wanted: string | { source: string; flags: string },
): Promise<void> {
  const page = ctx.page.page;
  const exact =
    typeof wanted === 'string' && !wanted.includes('*') ? compileUrlPattern(wanted, 'url') : undefined;
  const regex =
    typeof wanted === 'string'
      ? globRegex(wanted, 'url')
      : toRegexPattern(wanted.source, wanted.flags, 'url');
  const matches = async (href: string): Promise<boolean> =>
    exact !== undefined
      ? exact(href)
      : (
          await matchOffLoop(regex, [href], {
            timeoutMs: ctx.deadline.stepTimeoutMs(),
            signal: ctx.signal,
            field: 'url',
          })
        ).length > 0;
  let committed = (): void => undefined;
  const onNavigated = (frame: Frame): void => {
    if (frame === page.mainFrame()) committed();
  };
  page.on('framenavigated', onNavigated);
  try {
    for (;;) {
      // Armed before the check, so a commit during it is not missed.
      const next = new Promise<void>((resolve) => (committed = resolve));
      if (await matches(page.url())) return;
      await withDeadline(next, ctx.deadline, ctx.signal);
    }
  } finally {
    page.off('framenavigated', onNavigated);
  }
}

async function waitForElement(
  ctx: PageOperationContext,
  target: TargetSpec,
  state: ElementState,
  counted: ((locator: Locator) => Promise<boolean[]>) | undefined,
): Promise<void> {
  if (target.built !== undefined && target.ref === undefined && target.locator === undefined) {
    const options = { timeout: ctx.deadline.stepTimeoutMs(), signal: ctx.signal };
    const locator = target.built.build(ctx.page.page.mainFrame());
    const { description } = target.built;
    if (counted !== undefined)
      return pollUntil(ctx, () => countedStateHolds(ctx, locator, counted, state, description));
    if (state === 'enabled' || state === 'disabled') {
      return pollUntil(ctx, () =>
        enabledState(locator, ctx.deadline.stepTimeoutMs(), ctx.signal).then(
          (on) => on === (state === 'enabled'),
        ),
      );
    }
    return locator.waitFor({ ...options, state });
  }
  if ((target.ref === undefined) === (target.locator === undefined)) {
    throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'locator: give exactly one of ref or locator', {
      details: { field: 'locator' },
    });
  }
  if (target.ref !== undefined) return waitForRefState(ctx, target.ref, state);
  const checked = checkLocator(target.locator ?? {}, 'locator');
  const locator = toChainedLocator(ctx.page.page.mainFrame(), checked);
  const options = { timeout: ctx.deadline.stepTimeoutMs(), signal: ctx.signal };
  if (state !== 'enabled' && state !== 'disabled') {
    await locator.waitFor({ ...options, state });
    return;
  }
  await pollUntil(ctx, () =>
    enabledState(locator, ctx.deadline.stepTimeoutMs(), ctx.signal).then(
      (enabled) => enabled === (state === 'enabled'),
    ),
  );
}

async function enabledState(locator: Locator, timeout: number, signal: AbortSignal): Promise<boolean> {
  await locator.waitFor({ state: 'attached', timeout, signal });
  return locator.isEnabled({ timeout, signal });
}

/** A ref's element: a detached (stale) ref satisfies `detached` and `hidden`, and fails the others loudly. */
async function waitForRefState(ctx: PageOperationContext, ref: string, state: ElementState): Promise<void> {
  const target = await resolveRefTarget(ctx.page, ref, ctx.deadline, '', ctx.signal).catch(
    (error: unknown) => {
      if (
        isBrowserMeshError(error) &&
        error.code === ErrorCodes.STALE_ELEMENT_REFERENCE &&
        (state === 'detached' || state === 'hidden')
      )
        return undefined;
      throw error;
    },
  );
  if (!target) return;
  try {
    await pollUntil(ctx, async () => {
      const now = await callOn<{ attached: boolean; visible: boolean; enabled: boolean }>(
        target,
        ELEMENT_STATE,
      ).catch(() => ({ attached: false, visible: false, enabled: false }));
      if (!now.attached && state !== 'detached' && state !== 'hidden') {
        throw new BrowserMeshError(ErrorCodes.STALE_ELEMENT_REFERENCE, "The ref's element left the page", {
          details: { field: 'ref' },
        });
      }
      const holds: Record<ElementState, boolean> = {
        attached: now.attached,
        detached: !now.attached,
        visible: now.visible,
        hidden: !now.visible,
        enabled: now.enabled,
        disabled: !now.enabled,
      };
      return holds[state];
    });
  } finally {
    void releaseObjects([target.cdp]);
  }
}

async function pollUntil(ctx: PageOperationContext, check: () => Promise<boolean>): Promise<void> {
  for (;;) {
    if (await check()) return;
    await pause(ctx, POLL_MS);
  }
}

/** Playwright's strict-mode failure becomes LOCATOR_AMBIGUOUS (with the count when it says). */
function toWaitError(error: unknown): BrowserMeshError {
  if (isBrowserMeshError(error)) return error;
  const text = error instanceof Error ? error.message : '';
  const strict = /strict mode violation[^\n]*resolved to (\d+) elements/i.exec(text);
  if (strict) {
    return new BrowserMeshError(ErrorCodes.LOCATOR_AMBIGUOUS, `The locator matches ${strict[1]} elements`, {
      details: { field: 'locator', count: Number(strict[1]) },
    });
  }
  if (/strict mode violation/i.test(text))
    return new BrowserMeshError(ErrorCodes.LOCATOR_AMBIGUOUS, 'The locator matches several elements', {
      details: { field: 'locator' },
    });
  if (/Unexpected token|not a valid selector|while parsing/i.test(text)) {
    return new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'locator: is not a valid selector', {
      details: { field: 'locator' },
    });
  }
  return toBrowserError(error, 'Wait failed');
}
