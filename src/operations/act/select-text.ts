import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import { callOn, type ElementTarget } from '../target/remote-element.js';
import { DetachedError } from './pointer.js';

/**
 * Selects a piece of text by its content inside an element: a range of an input's or textarea's value,
 * or a DOM range over the element's text (a contenteditable paragraph, a rich-text editor), with the
 * editable host focused first so keyboard commands (Control+B) act on the selection.
 */
const SELECT_TEXT = `function (text, occurrence) {
  const el = this;
  if (!el.isConnected) return { ok: false, reason: 'detached' };
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

export async function selectTextIn(target: ElementTarget, text: string, occurrence = 1): Promise<void> {
  if (text.length === 0 || text.length > 10_000)
    throw invalidArgument('selectText', 'must be 1 to 10,000 characters');
  if (!Number.isInteger(occurrence) || occurrence < 1 || occurrence > 1000)
    throw invalidArgument('occurrence', 'must be an integer from 1 to 1000');
  const result = await callOn<{ ok: boolean; reason?: string }>(target, SELECT_TEXT, [
    text,
    occurrence,
  ]).catch(() => ({ ok: false, reason: 'detached' }));
  if (result.reason === 'detached') throw new DetachedError('element detached');
  if (!result.ok)
    throw new BrowserMeshError(
      ErrorCodes.INVALID_ARGUMENT,
      `selectText: the text (occurrence ${occurrence}) is not in the element (${target.description})`,
      { details: { field: 'selectText', reason: 'not_found' } },
    );
}
