import { axString, cleanText, MAX_NAME_CHARS, statesOf } from './node-info.js';
import { BREAK, hasActionableOrStructure, joinedText, normalizeChildren, type Item } from './normalize.js';
import { displayRole } from './roles.js';
import type { AXNodeLike, DomFacts, SnapNode } from './types.js';

/**
 * The shapes the builder gives parts of widgets that the accessibility tree leaves plain (what the
 * page listens on, the root and paragraphs of a rich-text editor, a drop target), and the order of
 * rows a grid moved with CSS. The builder adds each node's ref.
 */

/** Longest text a clickable or a drop zone shows as its name; more and its content is shown instead. */
const MAX_CLICKABLE_TEXT = 150;

/**
 * A div with onclick, cursor:pointer or tabindex holding only a little text, or an item in a grid
 * cell (`cellItem`): `[clickable @e3] Open`. Undefined when it holds more than that.
 */
export function clickableNode(
  node: AXNodeLike,
  axRole: string,
  items: Item[],
  facts: DomFacts | undefined,
  transparent: boolean,
  cellItem: boolean,
): SnapNode | undefined {
  if (hasActionableOrStructure(items)) return undefined;
  const name = cleanText(axString(node.name), MAX_NAME_CHARS) || joinedText(items);
  if (name === '' || Array.from(name).length > MAX_CLICKABLE_TEXT) return undefined;
  const clicks = cellItem || (facts !== undefined && (facts.clickable || facts.tabbable));
  const role = transparent ? (clicks ? 'clickable' : 'draggable') : displayRole(axRole, undefined);
  const states = statesOf(node, axRole, false);
  if (clicks && role !== 'clickable') states.push('clickable');
  if (facts?.draggable && role !== 'draggable') states.push('draggable');
  return { role, name, states, interactive: true, children: [] };
}

/**
 * The root of a contenteditable region with no role of its own (a rich-text editor): a textbox
 * to click, type into and select text in, its text shown below it as usual.
 */
export function editorRoot(name: string, items: Item[], onCut: () => void): SnapNode {
  const out: SnapNode = { role: 'textbox', name, states: [], interactive: true, children: [] };
  out.children = normalizeChildren(items, out, onCut);
  return out;
}

/**
 * An element inside a contenteditable editor: a paragraph is one entry with its whole text (whatever
 * inline marks it holds), the same shape in every editor; an empty one has an empty name. Anything
 * else (or a paragraph holding a control) is BREAK: the caller shows its items as text.
 */
export function editorPart(axRole: string, items: Item[]): SnapNode | typeof BREAK {
  if (axRole !== 'paragraph' || hasActionableOrStructure(items)) return BREAK;
  return { role: 'paragraph', name: joinedText(items), states: [], interactive: true, children: [] };
}

/** A plain element the page marks as a drop target (ondrop, ondragover…): `[dropzone @e4] Done`. */
export function dropZone(items: Item[], onCut: () => void): SnapNode {
  const out: SnapNode = { role: 'dropzone', name: '', states: [], interactive: false, children: [] };
  const text = joinedText(items);
  if (!hasActionableOrStructure(items) && Array.from(text).length <= MAX_CLICKABLE_TEXT) out.name = text;
  else out.children = normalizeChildren(items, out, onCut);
  return out;
}

/**
 * Grids that sort or scroll by moving rows with CSS keep their DOM order and say the real order with
 * aria-rowindex: rows that carry one are shown in that order (a stable sort; the others keep their place).
 */
export function inRowOrder(children: SnapNode[], rowIndex: WeakMap<SnapNode, number>): SnapNode[] {
  const indexed = children.filter((c) => rowIndex.has(c));
  if (indexed.length < 2) return children;
  const sorted = [...indexed].sort((a, b) => (rowIndex.get(a) ?? 0) - (rowIndex.get(b) ?? 0));
  let next = 0;
  return children.map((c) => (rowIndex.has(c) ? (sorted[next++] ?? c) : c));
}
