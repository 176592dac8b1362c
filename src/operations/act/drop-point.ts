import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import { actionPoint, DetachedError, notInteractable, type Point } from './pointer.js';
import { callOn, type ElementTarget } from '../locate/remote-element.js';

/**
 * Where a drag ends inside its target. Sortable lists decide by which half of an item the pointer is
 * in, so "before" and "after" land a quarter in from the item's leading or trailing edge, along the
 * axis its siblings are laid out on; a point is CSS px from the target's top-left corner.
 */
export type DropPosition = 'before' | 'after' | { x: number; y: number };

export function checkDropPosition(position: unknown, field = 'position'): DropPosition | undefined {
  if (position === undefined || position === 'before' || position === 'after') return position;
  if (typeof position === 'object' && position !== null) {
    const { x, y } = position as { x?: unknown; y?: unknown };
    if (typeof x === 'number' && typeof y === 'number' && x >= 0 && y >= 0 && Number.isFinite(x + y))
      return { x, y };
  }
  throw invalidArgument(field, "must be 'before', 'after' or {x, y} (CSS px from the target's top-left)");
}

/** The offset from the target's visible centre to the drop position, measured in its own frame. */
const DROP_OFFSET = `function (position) {
  const el = this, win = el.ownerDocument.defaultView;
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return { ok: false };
  const x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0);
  const x1 = Math.min(r.right, win.innerWidth), y1 = Math.min(r.bottom, win.innerHeight);
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  if (typeof position === 'object') {
    if (position.x > r.width || position.y > r.height) return { ok: false, width: Math.round(r.width), height: Math.round(r.height) };
    return { ok: true, dx: r.left + position.x - cx, dy: r.top + position.y - cy };
  }
  const sibling = el.previousElementSibling || el.nextElementSibling;
  const s = sibling && sibling.getBoundingClientRect();
  const horizontal = !!s && s.height > 0 && Math.abs(s.top - r.top) < 1 && Math.abs(s.left - r.left) >= 1;
  const f = position === 'before' ? 0.25 : 0.75;
  return horizontal ? { ok: true, dx: r.left + r.width * f - cx, dy: 0 } : { ok: true, dx: 0, dy: r.top + r.height * f - cy };
}`;

interface Offset {
  ok: boolean;
  dx?: number;
  dy?: number;
  width?: number;
  height?: number;
}

/** Where to drop, in the page's viewport: recomputed during a drag, without a hit test (the drag image may sit on top). */
export async function dropPoint(target: ElementTarget, position: DropPosition | undefined): Promise<Point> {
  const prepared = await actionPoint(target, false, false);
  if (!prepared.ok) {
    if (prepared.reason === 'detached') throw new DetachedError('element detached');
    throw notInteractable(target, prepared);
  }
  if (position === undefined) return prepared;
  const offset = await callOn<Offset>(target, DROP_OFFSET, [position]).catch((): Offset => ({ ok: false }));
  if (offset.ok) return { x: prepared.x + (offset.dx ?? 0), y: prepared.y + (offset.dy ?? 0) };
  const { width, height } = offset;
  if (width === undefined || height === undefined) throw new DetachedError('element detached');
  throw new BrowserMeshError(
    ErrorCodes.INVALID_ARGUMENT,
    `position: the point is outside the target (${width}x${height} px)`,
    { details: { field: 'position', width, height } },
  );
}
