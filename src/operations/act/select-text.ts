import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import { callOn, type ElementTarget } from '../locate/remote-element.js';
import { DetachedError } from './pointer.js';
import { taintedName } from './secret-taint.js';

/**
 * In-page: whether a `{{secret:NAME}}` was entered into the element, an element inside it or the
 * editable host around it. Selecting by content there would answer whether the text is in the secret.
 */
const SECRET_INSIDE = `(() => {
  for (let n = el; n; n = n.parentElement) if (${taintedName('n')} !== undefined) return true;
  const inner = el.querySelectorAll('*');
  for (let i = 0; i < inner.length && i < 10000; i++) { const n = inner[i]; if (${taintedName('n')} !== undefined) return true; }
  return false;
})()`;

/** The text a selection searches (an input's value, else the element's text), bounded. */
const HAYSTACK = `function (max) {
  const el = this;
  if (!el.isConnected) return null;
  return String(el.localName === 'input' || el.localName === 'textarea' ? el.value : el.textContent || '').slice(0, max);
}`;
const MAX_HAYSTACK_CHARS = 200_000;

/**
 * Selects a piece of text by its content inside an element: a range of an input's or textarea's value,
 * or a DOM range over the element's text (a contenteditable paragraph, a rich-text editor), with the
 * editable host focused first so keyboard commands (Control+B) act on the selection.
 */
const SELECT_TEXT = `function (text, occurrence) {
  const el = this;
  if (!el.isConnected) return { ok: false, reason: 'detached' };
  if (${SECRET_INSIDE}) return { ok: false, reason: 'secret_filled' };
  const doc = el.ownerDocument, win = doc.defaultView;
  const nth = (hay) => { let at = -1; for (let i = 0; i < occurrence; i++) { at = hay.indexOf(text, at + 1); if (at < 0) return -1; } return at; };
  if (el.localName === 'input' || el.localName === 'textarea') {
    const at = nth(el.value);
    if (at < 0) return { ok: false, reason: 'not_found' };
    el.focus();
    el.setSelectionRange(at, at + text.length);
    return { ok: true };
  }
  const walker = doc.createTreeWalker(el, 4);
  const nodes = [];
  let all = '';
  for (let n = walker.nextNode(); n; n = walker.nextNode()) { nodes.push({ n, from: all.length }); all += n.data; }
  const at = nth(all);
  if (at < 0) return { ok: false, reason: 'not_found' };
  const locate = (offset, end) => {
    for (const { n, from } of nodes) {
      const len = n.data.length;
      if (end ? offset > from && offset <= from + len : offset >= from && offset < from + len) return { n, o: offset - from };
    }
    return null;
  };
  const host = el.isContentEditable ? (el.closest('[contenteditable]:not([contenteditable=false])') || el) : el;
  if (host.focus) host.focus();
  const a = locate(at, false), b = locate(at + text.length, true);
  if (!a || !b) return { ok: false, reason: 'not_found' };
  const range = doc.createRange();
  range.setStart(a.n, a.o);
  range.setEnd(b.n, b.o);
  const selection = win.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  return { ok: true };
}`;

/**
 * `redact` (the session's secret redaction, when it has secrets): an element whose text holds a
 * secret in any form is refused before anything is matched, as is one a secret was entered into.
 */
export async function selectTextIn(
  target: ElementTarget,
  text: string,
  occurrence = 1,
  redact?: (text: string) => string,
): Promise<void> {
  if (text.length === 0 || text.length > 10_000)
    throw invalidArgument('selectText', 'must be 1 to 10,000 characters');
  if (!Number.isInteger(occurrence) || occurrence < 1 || occurrence > 1000)
    throw invalidArgument('occurrence', 'must be an integer from 1 to 1000');
  if (redact) {
    const haystack = await callOn<string | null>(target, HAYSTACK, [MAX_HAYSTACK_CHARS]).catch(() => null);
    if (haystack === null) throw new DetachedError('element detached');
    if (redact(haystack) !== haystack) throw secretFilled(target);
  }
  const result = await callOn<{ ok: boolean; reason?: string }>(target, SELECT_TEXT, [
    text,
    occurrence,
  ]).catch(() => ({ ok: false, reason: 'detached' }));
  if (result.reason === 'detached') throw new DetachedError('element detached');
  if (result.reason === 'secret_filled') throw secretFilled(target);
  if (!result.ok)
    throw new BrowserMeshError(
      ErrorCodes.INVALID_ARGUMENT,
      `selectText: the text (occurrence ${occurrence}) is not in the element (${target.description})`,
      { details: { field: 'selectText', reason: 'not_found' } },
    );
}

/** The same refusal whether or not the text is in the secret: the answer carries nothing about it. */
function secretFilled(target: ElementTarget): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.INVALID_ARGUMENT,
    `selectText: the element (${target.description}) holds a secret; its text cannot be selected by content`,
    {
      details: { field: 'selectText', reason: 'secret_filled' },
      recoveryHint: 'Select all of it (Control+a) or clear it and fill it again.',
    },
  );
}
