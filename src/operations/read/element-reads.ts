import type { Locator } from 'playwright-core';
import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../../errors.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { withDeadline } from '../../engine/runtime.js';
import { SECRET_AUTOCOMPLETE } from '../../snapshot/roles.js';
import { taintedName } from '../act/secret-taint.js';
import { ActionScope } from '../act/action-scope.js';
import { recordStep, type LoggedTarget } from '../journal/action-log.js';
import type { TargetSpec } from '../locate/locator-spec.js';
import { ELEMENT_STATE, READ_CHECKED } from '../locate/page-functions.js';
import { DetachedError } from '../act/pointer.js';
import { callOn, type ElementTarget } from '../locate/remote-element.js';

/**
 * Bounded reads of one element, or of every match of a built locator (code mode's `textContent`,
 * `count`, `allTextContents`…). The element is found exactly as actions find it (strict, quick
 * ELEMENT_NOT_FOUND); values are cut in the page, so a huge text never crosses CDP whole.
 */

/** Characters kept of one read value. */
export const MAX_READ_CHARS = 100_000;
/** Elements read by the `all*` reads. */
export const MAX_READ_ELEMENTS = 1_000;

export type ElementRead = 'textContent' | 'innerText' | 'inputValue' | 'attribute';

type ReadReply = { value: string | null } | { refused: string } | { detached: true };

// A password (or one-time-code, card number) input's value is masked as snapshots mask it, unless
// the operator opted in with BROWSERMESH_READ_SECRET_INPUTS: a prompt-injected script must not
// read back what the agent typed.
const READ_VALUE = `function (what, name, max, reveal) {
  if (!this.isConnected) return { detached: true };
  const cut = (s) => (s === null || s === undefined ? null : String(s).slice(0, max));
  const secret = !reveal && this.localName === 'input' && (String(this.type).toLowerCase() === 'password' ||
    ${SECRET_AUTOCOMPLETE}.test(String(this.getAttribute('autocomplete') || '')));
  if (secret && (what === 'inputValue' || (what === 'attribute' && String(name).toLowerCase() === 'value')))
    return { value: what === 'attribute' ? (this.getAttribute('value') === null ? null : '••••') : this.value ? '••••' : '' };
  // A --secrets value went into this element: no read of it comes back, opt-in or not.
  const entered = ${taintedName('this')};
  if (entered !== undefined && (what !== 'attribute' || String(name).toLowerCase() === 'value'))
    return { value: what === 'attribute' && this.getAttribute('value') === null ? null : '{{secret:' + entered + '}}' };
  if (what === 'textContent') return { value: cut(this.textContent) };
  if (what === 'innerText') return { value: cut('innerText' in this ? this.innerText : this.textContent) || '' };
  if (what === 'attribute') return { value: cut(this.getAttribute(name)) };
  const tag = this.localName;
  if (tag !== 'input' && tag !== 'textarea' && tag !== 'select') return { refused: 'not_an_input' };
  return { value: cut(this.value) || '' };
}`;

/** One string value (null for a missing attribute or an empty textContent node). */
export async function readElement(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
  what: ElementRead,
  attribute = '',
): Promise<string | null> {
  return withTextRead(ctx, spec, field, what, async (target) => {
    const reveal = ctx.config.readSecretInputs;
    const reply = await callOn<ReadReply>(target, READ_VALUE, [
      what,
      attribute,
      MAX_READ_CHARS,
      reveal,
    ]).catch((): ReadReply => ({ detached: true }));
    if ('detached' in reply) throw new DetachedError('element detached');
    if ('refused' in reply) {
      throw new BrowserMeshError(
        ErrorCodes.ELEMENT_NOT_INTERACTABLE,
        `The element (${target.description}) is not an input, textarea or select`,
        { details: { reason: reply.refused } },
      );
    }
    return reply.value;
  });
}

/** isChecked / isEnabled of one element (not checkable → ELEMENT_NOT_INTERACTABLE, as Playwright throws). */
export async function readElementState(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
  what: 'checked' | 'enabled',
): Promise<boolean> {
  return withScope(ctx, spec, field, async (target) => {
    if (what === 'enabled') {
      const state = await callOn<{ attached: boolean; enabled: boolean }>(target, ELEMENT_STATE);
      if (!state.attached) throw new DetachedError('element detached');
      return state.enabled;
    }
    const state = await callOn<{ kind: string; checked?: boolean }>(target, READ_CHECKED);
    if (state.kind === 'detached') throw new DetachedError('element detached');
    if (state.kind === 'none') {
      throw new BrowserMeshError(
        ErrorCodes.ELEMENT_NOT_INTERACTABLE,
        `The element (${target.description}) is not a checkbox, radio or switch`,
        { details: { reason: 'not_checkable' } },
      );
    }
    return state.checked === true;
  });
}

/** Whether the element is visible now, without waiting; no match (or a gone ref) is false. */
export async function isElementVisible(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
): Promise<boolean> {
  if (spec.built !== undefined) {
    const locator = spec.built.build(ctx.page.page.mainFrame());
    const count = await locator.count();
    if (count === 0) return false;
    if (count > 1) throw ambiguous(spec.built.description, count, field);
    return locator.isVisible().catch(() => false);
  }
  return withScope(ctx, spec, field, async (target) => {
    const state = await callOn<{ attached: boolean; visible: boolean }>(target, ELEMENT_STATE);
    return state.attached && state.visible;
  }).catch((error: unknown) => {
    if (isBrowserMeshError(error) && error.code === ErrorCodes.STALE_ELEMENT_REFERENCE) return false;
    throw error;
  });
}

/** Matches right now (no waiting), as Playwright's `count()`. */
export function countMatches(ctx: PageOperationContext, locator: Locator): Promise<number> {
  return withDeadline(locator.count(), ctx.deadline, ctx.signal);
}

/** textContent or innerText of every match (at most MAX_READ_ELEMENTS, each bounded). */
export function readAll(
  ctx: PageOperationContext,
  locator: Locator,
  what: 'textContent' | 'innerText',
): Promise<string[]> {
  const read = locator.evaluateAll(readTexts, { what, max: MAX_READ_CHARS, limit: MAX_READ_ELEMENTS });
  return withDeadline(read, ctx.deadline, ctx.signal);
}

function readTexts(elements: Element[], arg: { what: string; max: number; limit: number }): string[] {
  return elements.slice(0, arg.limit).map((el) => {
    const text = arg.what === 'innerText' && el instanceof HTMLElement ? el.innerText : el.textContent;
    return (text ?? '').slice(0, arg.max);
  });
}

async function withScope<R>(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
  read: (target: ElementTarget) => Promise<R>,
  logged = false,
): Promise<R> {
  const scope = new ActionScope(ctx, logged);
  try {
    const result = await withDeadline(scope.withTarget(spec, field, read), ctx.deadline, ctx.signal);
    if (logged) logRead(ctx, typeof result === 'string' ? result : '', [...scope.described.values()]);
    return result;
  } finally {
    scope.release();
  }
}

export function ambiguous(description: string, count: number, field: string): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.LOCATOR_AMBIGUOUS,
    `${description} matches ${count} elements; narrow it (nth, first, filter) or use a ref`,
    { details: { field, count } },
  );
}

/** withScope for one value read; a text read is logged (a spec asserts it with toHaveText). */
function withTextRead(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
  what: ElementRead,
  read: (target: ElementTarget) => Promise<string | null>,
): Promise<string | null> {
  return withScope(ctx, spec, field, read, what === 'textContent' || what === 'innerText');
}

/** Characters of a read text a spec asserts (longer reads are not turned into assertions). */
const MAX_ASSERTED_CHARS = 200;

/** A text read becomes a `toHaveText` assertion; one that holds a secret value is left out. */
function logRead(ctx: PageOperationContext, value: string, targets: LoggedTarget[]): void {
  const text = value.replace(/\s+/g, ' ').trim();
  if (targets.length === 0 || text.length > MAX_ASSERTED_CHARS) return;
  if (Object.values(ctx.session.secrets).some((v) => v !== '' && text.includes(v))) return;
  recordStep(ctx, { kind: 'readText', targets, value: text });
}
