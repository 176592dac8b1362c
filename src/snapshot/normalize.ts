import { cleanText, MAX_TEXT_CHARS } from './node-info.js';
import { CELL_ROLES, KEPT_CONTAINERS, TEXT_LABEL_ROLES } from './roles.js';
import type { SnapNode } from './types.js';

/**
 * The children of a kept node, cleaned: text runs split only by inline markup are joined into one
 * line, and text an agent already has is dropped (a label repeating its control's name, a caption
 * repeating its table's name, a heading's own text).
 */

/** A child list while building: nodes, plus `BREAK` where block layout separates text runs. */
export const BREAK = null;
export type Item = SnapNode | typeof BREAK;

/** Roles whose name is computed from their content: text inside them that the name covers is noise. */
const NAME_FROM_CONTENT = new Set([
  'heading',
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
  'option',
  'link',
  'button',
  'tab',
  'menuitem',
  'treeitem',
  'row',
  'tooltip',
  'clickable',
  'listitem',
  'caption',
]);

export function textNode(text: string): SnapNode {
  return { role: 'text', name: text, states: [], interactive: false, children: [] };
}

export function isText(node: SnapNode): boolean {
  return node.role === 'text';
}

export function normalizeChildren(
  items: readonly Item[],
  parent: { role: string; name: string },
  onCut: () => void,
): SnapNode[] {
  const merged = mergeTextRuns(items, onCut);
  const controlNames = new Set(
    merged.filter((n) => n.interactive && n.name !== '').map((n) => n.name.toLowerCase()),
  );
  const parentName = parent.name.toLowerCase();
  const coveredByName = NAME_FROM_CONTENT.has(parent.role);
  const kept: SnapNode[] = [];
  merged.forEach((node, i) => {
    if (isText(node) && isRedundant(node.name.toLowerCase())) {
      // The next node's line started at (or ran through) the dropped text: it inherits that.
      const next = merged[i + 1];
      if (next?.glue && !node.glue) delete next.glue;
      return;
    }
    kept.push(node);
  });
  return kept;

  function isRedundant(text: string): boolean {
    if (controlNames.has(text) || text === parentName) return true;
    return coveredByName && parentName.includes(text);
  }
}

function mergeTextRuns(items: readonly Item[], onCut: () => void): SnapNode[] {
  const out: SnapNode[] = [];
  let run = '';
  // Whether the next node continues the same block as the last one (no BREAK in between).
  let sameBlock = false;
  const push = (node: SnapNode): void => {
    const prev = out[out.length - 1];
    if (sameBlock && prev && flows(prev) && flows(node)) node.glue = true;
    out.push(node);
    sameBlock = true;
  };
  const flush = (): void => {
    const text = cleanText(run, MAX_TEXT_CHARS, onCut);
    if (text !== '') push(textNode(text));
    run = '';
  };
  for (const item of items) {
    if (item === BREAK) {
      flush();
      run += ' ';
      sameBlock = false;
    } else if (isText(item)) {
      run += item.name;
    } else {
      flush();
      push(item);
    }
  }
  flush();
  return out;
}

/** Text, or an inline leaf control (a link inside a sentence). */
function flows(node: SnapNode): boolean {
  return isText(node) || (node.inline === true && node.children.length === 0);
}

/** All text below these items, joined the way a reader would see it (for names of clickable divs). */
export function joinedText(items: readonly Item[]): string {
  const parts: string[] = [];
  const visit = (list: readonly Item[]): void => {
    for (const item of list) {
      if (item === BREAK) parts.push(' ');
      else if (isText(item)) parts.push(item.name);
      else {
        if (item.name !== '') parts.push(` ${item.name} `);
        visit(item.children);
      }
    }
  };
  visit(items);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** Whether anything below is interactive or structure that a clickable wrapper must not swallow. */
export function hasActionableOrStructure(items: readonly Item[]): boolean {
  return items.some(
    (item) =>
      item !== BREAK &&
      (item.interactive || STRUCTURE.has(item.role) || hasActionableOrStructure(item.children)),
  );
}

const STRUCTURE = new Set([
  'heading',
  'list',
  'table',
  'grid',
  'navigation',
  'main',
  'banner',
  'contentinfo',
  'complementary',
  'form',
  'region',
  'dialog',
  'iframe',
  'article',
]);

/** The interactive nodes among these items and their descendants (for the children of a control). */
export function interactiveOnly(items: readonly Item[], keepOptions: boolean): SnapNode[] {
  const out: SnapNode[] = [];
  const visit = (list: readonly Item[]): void => {
    for (const item of list) {
      if (item === BREAK || isText(item)) continue;
      if (item.interactive || (keepOptions && item.role === 'option')) out.push(item);
      else visit(item.children);
    }
  };
  visit(items);
  return out;
}

/**
 * The last say on a kept node: drops an empty wrapper, lets a lone child stand in for its unnamed
 * wrapper, and lets leading text name an unnamed list item or article (`[listitem] Clothing`).
 * Elements with refs, cells and landmark-like containers always stay.
 */
export function pruneKept(axRole: string, node: SnapNode): Item[] {
  if (node.key !== undefined || CELL_ROLES.has(axRole)) return [node];
  const first = node.children[0];
  const labelled = axRole === 'listitem' || axRole === 'article';
  if (labelled && node.name === '' && first && isText(first) && node.children.length > 1) {
    node.name = first.name;
    node.children = node.children.slice(1);
  }
  if (node.name !== '' || KEPT_CONTAINERS.has(axRole))
    return node.children.length === 0 && axRole === 'row' ? [] : [node];
  if (node.children.length === 0) return [];
  if (node.children.length === 1 && first) {
    if (isText(first) && TEXT_LABEL_ROLES.has(axRole)) return [{ ...node, name: first.name, children: [] }];
    return [BREAK, first, BREAK];
  }
  return [node];
}

/** A region labelled by its own heading adds a line that says nothing the heading does not. */
export function isRegionNamedByHeading(axRole: string, name: string, items: readonly Item[]): boolean {
  if (axRole !== 'region' || name === '') return false;
  return items.some((item) => item !== BREAK && item.role === 'heading' && item.name === name);
}
