import type { PageOperationContext } from '../../engine/runtime.js';
import { performAction, type ActionResult } from './action-scope.js';
import type { TargetSpec } from '../locate/locator-spec.js';
import { DetachedError } from './pointer.js';
import { callOn } from '../locate/remote-element.js';

/**
 * Playwright's `locator.selectText()`: all of an input's or textarea's value, or all the text of any
 * other element (its node contents), with the editable host focused first so keyboard commands
 * (Control+B, typing over) act on the selection. Selecting a piece by content is select-text.ts.
 */
const SELECT_ALL = `function () {
  const el = this;
  if (!el.isConnected) return 'detached';
  if (el.localName === 'input' || el.localName === 'textarea') {
    el.focus();
    el.select();
    return 'ok';
  }
  const doc = el.ownerDocument;
  const host = el.isContentEditable ? (el.closest('[contenteditable]:not([contenteditable=false])') || el) : el;
  if (host.focus) host.focus();
  const range = doc.createRange();
  range.selectNodeContents(el);
  const selection = doc.defaultView.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  return 'ok';
}`;

export function selectAllText(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
): Promise<ActionResult> {
  return performAction(ctx, async (scope) => {
    await scope.withTarget(spec, field, async (target) => {
      const result = await callOn<string>(target, SELECT_ALL).catch(() => 'detached');
      if (result !== 'ok') throw new DetachedError('element detached');
    });
    scope.logAs({ kind: 'focus' });
    return {};
  });
}
