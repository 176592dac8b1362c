import { setTimeout as delay } from 'node:timers/promises';
import type { Locator } from 'playwright-core';
import { withDeadline, type PageOperationContext } from '../engine/runtime.js';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { ambiguous, MAX_READ_CHARS, MAX_READ_ELEMENTS } from '../operations/read/element-reads.js';
import { APPEAR_WINDOW_MS } from '../operations/locate/locate.js';
import { hasSecrets, redactInside } from '../redaction/session-redact.js';
import type { ElementSelector, SelectorBase, TextPattern } from './facade-calls.js';
import type { FacadeCall } from './facade-parse.js';
import { describeSelector, toLocator } from './selector-target.js';

/**
 * Matches of a locator that match by text (getByText, filter({ hasText, hasNotText })), seen as the
 * script would see them once the session's secrets are redacted: a match whose text holds a secret
 * counts only when the chain's text patterns still match its redacted text. Otherwise `count()` of
 * getByText(/^tokC/) against getByText(/^tokX/) would tell the script the secret letter by letter
 * (docs/security.md, "No match oracles"). A chain that matches no text is left as Playwright has it.
 */

interface TextCheck {
  pattern: string | TextPattern;
  exact: boolean;
  /** hasNotText: a secret-holding match is left out whatever the pattern (Playwright may have dropped it). */
  negated: boolean;
}

/**
 * A selector string that can match by text (`text=`, `:has-text()`, `:text()`, XPath): its pattern is
 * not evaluated here, so a secret-holding match of it is left out, as a regex's is.
 */
const TEXT_SELECTOR = /(^|[\s,>+~(])(text|xpath)=|:(has-text|text|text-is|text-matches)\(|^\s*\.{0,2}\//i;
const UNEVALUATED: TextPattern = { source: '', flags: '' };

function baseCheck(base: SelectorBase): TextCheck | undefined {
  if (base.kind === 'text') return { pattern: base.text, exact: base.exact === true, negated: false };
  if (base.kind === 'css' && TEXT_SELECTOR.test(base.selector))
    return { pattern: UNEVALUATED, exact: false, negated: false };
  return undefined;
}

/** The text patterns of the chain, or none when the session has no secrets. */
export function textChecksOf(ctx: PageOperationContext, selector: ElementSelector): TextCheck[] {
  if (!hasSecrets(ctx.session) || selector.base.kind === 'ref') return [];
  const checks: TextCheck[] = [];
  const first = baseCheck(selector.base);
  if (first !== undefined) checks.push(first);
  for (const step of selector.steps) {
    const within = step.kind === 'within' ? baseCheck(step.base) : undefined;
    if (within !== undefined) checks.push(within);
    if (step.kind !== 'filter') continue;
    if (step.hasText !== undefined) checks.push({ pattern: step.hasText, exact: false, negated: false });
    if (step.hasNotText !== undefined) checks.push({ pattern: step.hasNotText, exact: false, negated: true });
  }
  return checks;
}

/** Which of the locator's matches (at most MAX_READ_ELEMENTS) still match with the secrets redacted. */
export async function secretBlindMatches(
  ctx: PageOperationContext,
  locator: Locator,
  checks: TextCheck[],
): Promise<boolean[]> {
  const texts = await withDeadline(
    locator.evaluateAll(textsOf, { max: MAX_READ_CHARS, limit: MAX_READ_ELEMENTS }),
    ctx.deadline,
    ctx.signal,
  );
  return texts.map((text) => {
    const redacted = redactInside(ctx.session, text);
    if (redacted === text) return true;
    return checks.every((check) => !check.negated && containsText(check, redacted));
  });
}

function textsOf(elements: Element[], arg: { max: number; limit: number }): string[] {
  return elements.slice(0, arg.limit).map((el) => {
    const value = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : '';
    return `${el.textContent ?? ''} ${value}`.slice(0, arg.max);
  });
}

/**
 * Playwright's string matching: whitespace collapsed, a substring in any case unless exact. A script's
 * regex never runs here, on the server's event loop: a secret-holding match of one is left out.
 */
function containsText(check: TextCheck, text: string): boolean {
  if (typeof check.pattern !== 'string') return false;
  const normal = text.replace(/\s+/g, ' ').trim();
  const wanted = check.pattern.replace(/\s+/g, ' ').trim();
  return check.exact ? normal === wanted : normal.toLowerCase().includes(wanted.toLowerCase());
}

/** Ops that count or list matches (their runners filter them) or wait for a state, not act on one. */
const LISTING = new Set<string>([
  'count',
  'allTextContents',
  'allInnerTexts',
  'isVisible',
  'waitForSelector',
]);

/**
 * A call on one element of a text-matching chain, seen with the secrets redacted: when a match holds a
 * secret the chain no longer matches once redacted, the call acts on the matches left — the one left
 * (by `nth`), none (ELEMENT_NOT_FOUND after the usual search window, as the locator would answer) or
 * several (LOCATOR_AMBIGUOUS with their count) — so finding an element says nothing about a secret.
 */
export async function secretBlindCall(ctx: PageOperationContext, call: FacadeCall): Promise<FacadeCall> {
  if (LISTING.has(call.op) || !('target' in call)) return call;
  const selector: ElementSelector | undefined = call.target;
  if (selector === undefined) return call;
  const checks = textChecksOf(ctx, selector);
  if (checks.length === 0) return call;
  const kept = await secretBlindMatches(ctx, toLocator(ctx.page.page.mainFrame(), selector), checks);
  if (kept.every(Boolean)) return call;
  const left = kept.flatMap((keep, index) => (keep ? [index] : []));
  const description = describeSelector(selector);
  if (left.length > 1) throw ambiguous(description, left.length, 'locator');
  const [only] = left;
  if (only !== undefined)
    return { ...call, target: { ...selector, steps: [...selector.steps, { kind: 'nth', index: only }] } };
  const searchedMs = Math.max(0, Math.min(APPEAR_WINDOW_MS, ctx.deadline.remainingMs()));
  await delay(searchedMs, undefined, { signal: ctx.signal }).catch(() => undefined);
  // Worded as the locator's own miss (src/operations/locate/locate.ts) for a main-frame chain.
  throw new BrowserMeshError(
    ErrorCodes.ELEMENT_NOT_FOUND,
    `no element matches ${description} (searched ${searchedMs} ms)`,
    {
      details: { field: 'locator', strategy: 'built', searchedMs, frameDepth: 0 },
      recoveryHint: 'Check the name with browser_snapshot, or wait for the element with browser_wait first.',
    },
  );
}
