import type { DragToCall } from './facade-calls.js';
import { parseSelector } from './facade-validate.js';
import { fail, isRecord, num, opt, options, timeoutOf, type Raw } from './validate-helpers.js';

/** Parsers of the widget members: locator.dragTo and page.dragAndDrop. */

const MAX_OFFSET = 100_000;

/** Playwright's `targetPosition: {x, y}`, or BrowserMesh's `position: 'before' | 'after' | {x, y}`. */
function dropPosition(m: string, o: Raw): DragToCall['position'] {
  const given = o['position'] ?? o['targetPosition'];
  return opt(given, (v) => {
    if (v === 'before' || v === 'after') return v;
    if (!isRecord(v)) return fail(m, "option 'position'", "must be 'before', 'after' or {x, y}");
    const x = num(m, "option 'position.x'", v['x'], MAX_OFFSET);
    const y = num(m, "option 'position.y'", v['y'], MAX_OFFSET);
    if (x < 0 || y < 0) fail(m, "option 'position'", 'must not be negative');
    return { x, y };
  });
}

function dragTo(m: string, a: Raw): DragToCall {
  const o = options(m, a['options'], ['position', 'targetPosition', 'timeout']);
  const call: DragToCall = {
    op: 'dragTo',
    target: parseSelector(m, a['target']),
    to: parseSelector(m, a['to']),
    ...timeoutOf(m, o),
  };
  const position = dropPosition(m, o);
  if (position !== undefined) call.position = position;
  return call;
}

export const WIDGET_PARSERS = { dragTo };
