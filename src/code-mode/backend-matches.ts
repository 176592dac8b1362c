import type { Locator } from 'playwright-core';
import { withDeadline, type PageOperationContext } from '../engine/runtime.js';
import { MAX_READ_CHARS, MAX_READ_ELEMENTS } from '../operations/read/element-reads.js';
import { hasSecrets, redactInside } from '../redaction/session-redact.js';
import type { ElementSelector, TextPattern } from './facade-calls.js';

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

/** The text patterns of the chain, or none when the session has no secrets. */
export function textChecksOf(ctx: PageOperationContext, selector: ElementSelector): TextCheck[] {
  if (!hasSecrets(ctx.session) || selector.base.kind === 'ref') return [];
  const checks: TextCheck[] = [];
  if (selector.base.kind === 'text')
    checks.push({ pattern: selector.base.text, exact: selector.base.exact === true, negated: false });
  for (const step of selector.steps) {
    if (step.kind === 'within' && step.base.kind === 'text')
      checks.push({ pattern: step.base.text, exact: step.base.exact === true, negated: false });
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
