import type { Locator } from 'playwright-core';
import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../errors.js';
import type { PageOperationContext } from '../engine/runtime.js';
import { titleLine } from '../redaction/session-redact.js';
import { scroll } from '../operations/act/actions.js';
import {
  countMatches,
  isElementVisible,
  readAll,
  readElement,
  readElementState,
} from '../operations/read/element-reads.js';
import type { TargetSpec } from '../operations/locate/locator-spec.js';
import { waitForQuiet } from '../operations/navigate/quiet.js';
import { emptyScopeText, snapshot } from '../operations/read/snapshot.js';
import { press, typeText } from '../operations/act/typing.js';
import { waitForCondition } from '../operations/navigate/waits.js';
import type { ElementSelector } from './facade-calls.js';
import type { FacadeCall } from './facade-parse.js';
import { afterLoad, delayOf, target, toDelta, type FacadeRunners } from './backend-define.js';
import { toLocator } from './selector-target.js';
import { secretBlindMatches, textChecksOf } from './backend-matches.js';

/** Runners of the reads, the waits, the keyboard and wheel scrolling (see backend-define.ts). */

/** innerText and inputValue read '' where Playwright's never return null; textContent may be null. */
const text =
  (what: 'innerText' | 'inputValue') =>
  async (ctx: PageOperationContext, call: { target: ElementSelector }): Promise<string> =>
    (await readElement(ctx, target(call.target), '', what)) ?? '';

export const READ_RUNNERS = {
  textContent: async (ctx, call) => readElement(ctx, target(call.target), '', 'textContent'),
  innerText: text('innerText'),
  inputValue: text('inputValue'),
  getAttribute: async (ctx, call) => readElement(ctx, target(call.target), '', 'attribute', call.name),
  isChecked: async (ctx, call) => readElementState(ctx, target(call.target), '', 'checked'),
  isEnabled: async (ctx, call) => readElementState(ctx, target(call.target), '', 'enabled'),
  isVisible: async (ctx, call) => visibleOf(ctx, call.target),
  count: async (ctx, call) => countOf(ctx, call.target),
  allTextContents: async (ctx, call) => allTexts(ctx, call.target, 'textContent'),
  allInnerTexts: async (ctx, call) => allTexts(ctx, call.target, 'innerText'),
  title: async (ctx) => titleLine(ctx.session, await ctx.page.page.title()),
  url: async (ctx) => ctx.page.page.url(),
  snapshot: async (ctx, call) => snapshotText(ctx, call),
  waitForSelector: async (ctx, call) => {
    // A text chain's matches count as they read with the secrets redacted (no wait is a match oracle).
    const checks = textChecksOf(ctx, call.target);
    const counted =
      checks.length === 0 ? undefined : (locator: Locator) => secretBlindMatches(ctx, locator, checks);
    await waitForCondition(ctx, { kind: 'element', target: target(call.target), state: call.state, counted });
    return null;
  },
  waitForURL: async (ctx, call) => {
    await waitForCondition(ctx, { kind: 'url', pattern: call.url });
    return afterLoad(ctx, call.waitUntil ?? 'load');
  },
  waitForLoadState: async (ctx, call) => afterLoad(ctx, call.state),
  waitForTimeout: async (ctx, call) => {
    await waitForQuiet(ctx, { maxMs: call.ms });
    return null;
  },
  keyboardPress: async (ctx, call, { note }) => {
    note(await press(ctx, undefined, '', call.key));
    return null;
  },
  keyboardType: async (ctx, call, { note }) => {
    note(await typeText(ctx, undefined, '', call.text, delayOf(call.delayMs)));
    return null;
  },
  scroll: async (ctx, call, { note }) => {
    const spec = call.target === undefined ? undefined : target(call.target);
    note(await scroll(ctx, spec, '', toDelta(call.deltaX), toDelta(call.deltaY)));
    return null;
  },
} satisfies Partial<FacadeRunners>;

/** page.snapshot(), or locator.snapshot(): that element's subtree, and an explicit line when it shows nothing. */
async function snapshotText(
  ctx: PageOperationContext,
  call: Extract<FacadeCall, { op: 'snapshot' }>,
): Promise<string> {
  const options = { interactiveOnly: call.interactiveOnly, maxChars: call.maxChars };
  const spec = call.target === undefined ? undefined : target(call.target);
  const result =
    spec === undefined
      ? await snapshot(ctx, options)
      : spec.ref !== undefined
        ? await snapshot(ctx, { ...options, scope: { ref: spec.ref } })
        : await snapshot(ctx, options, spec.built);
  return emptyScopeText(result) ?? result.snapshot;
}

async function countOf(ctx: PageOperationContext, selector: ElementSelector): Promise<number> {
  const spec = target(selector);
  if (spec.built === undefined) return (await isAttachedRef(ctx, spec)) ? 1 : 0;
  const locator = toLocator(ctx.page.page.mainFrame(), selector);
  const checks = textChecksOf(ctx, selector);
  if (checks.length === 0) return countMatches(ctx, locator);
  return (await secretBlindMatches(ctx, locator, checks)).filter(Boolean).length;
}

async function allTexts(
  ctx: PageOperationContext,
  selector: ElementSelector,
  what: 'textContent' | 'innerText',
): Promise<string[]> {
  const spec = target(selector);
  if (spec.built === undefined) return [(await readElement(ctx, spec, '', what)) ?? ''];
  const locator = toLocator(ctx.page.page.mainFrame(), selector);
  const checks = textChecksOf(ctx, selector);
  if (checks.length === 0) return readAll(ctx, locator, what);
  // One read of the texts and one of the match list: a page changing between them can only shorten it.
  const kept = await secretBlindMatches(ctx, locator, checks);
  return (await readAll(ctx, locator, what)).filter((_, i) => kept[i] === true);
}

/** No match left once the secrets are redacted is not visible; otherwise Playwright's answer. */
async function visibleOf(ctx: PageOperationContext, selector: ElementSelector): Promise<boolean> {
  const checks = textChecksOf(ctx, selector);
  if (checks.length > 0) {
    const kept = await secretBlindMatches(ctx, toLocator(ctx.page.page.mainFrame(), selector), checks);
    if (!kept.some(Boolean)) return false;
  }
  return isElementVisible(ctx, target(selector), '');
}

async function isAttachedRef(ctx: PageOperationContext, spec: TargetSpec): Promise<boolean> {
  try {
    await readElement(ctx, spec, '', 'attribute', 'id');
    return true;
  } catch (error) {
    if (isBrowserMeshError(error) && error.code === ErrorCodes.STALE_ELEMENT_REFERENCE) return false;
    throw error;
  }
}

/** For a backend that has no such op (the table is complete; a raw call may still name anything). */
export function notSupported(op: string): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.NOT_SUPPORTED, `${op} is not supported by this backend`);
}
