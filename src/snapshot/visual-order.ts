import type { AXNodeLike, Box, TargetCapture } from './types.js';

/**
 * Virtualized editors and lists draw lines of one height stacked at one x, positioned out of DOM
 * order (Monaco appends an edited line last): such siblings are read top to bottom. Anything else —
 * text between them, different heights or columns — keeps DOM order.
 */
export function inVisualOrder(kids: AXNodeLike[], dom: TargetCapture['dom']): AXNodeLike[] {
  if (kids.length < 2) return kids;
  const boxes: Box[] = [];
  for (const kid of kids) {
    const box = kid.backendDOMNodeId === undefined ? undefined : dom.get(kid.backendDOMNodeId)?.bounds;
    if (!box || box[3] <= 0) return kids;
    boxes.push(box);
  }
  const [x0, , , h0] = boxes[0] ?? [0, 0, 0, 0];
  if (boxes.some(([x, , , h]) => Math.abs(x - x0) > 1 || Math.abs(h - h0) > 1)) return kids;
  const order = kids.map((kid, i) => ({ kid, y: boxes[i]?.[1] ?? 0 }));
  if (order.every((o, i) => i === 0 || (order[i - 1]?.y ?? 0) <= o.y)) return kids;
  return order.sort((a, b) => a.y - b.y).map((o) => o.kid);
}
