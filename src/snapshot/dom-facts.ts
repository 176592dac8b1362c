import type { AriaFacts, Box, DomFacts } from './types.js';

/**
 * Reads one `DOMSnapshot.captureSnapshot` result (one CDP target: the page, or an out-of-process iframe
 * with its same-process children) into per-element facts the accessibility tree lacks: click
 * listeners and `cursor: pointer` (non-semantic clickables), `tabindex`, inline layout (to join text
 * runs), input types (password redaction), boxes, and which iframe element hosts which frame.
 */

/** The subset of the CDP result this module reads (the typed Playwright result is assignable). */
export interface DomSnapshotLike {
  strings: string[];
  documents: Array<{
    frameId: number;
    scrollOffsetX?: number;
    scrollOffsetY?: number;
    nodes: {
      parentIndex?: number[];
      nodeType?: number[];
      nodeName?: number[];
      backendNodeId?: number[];
      attributes?: number[][];
      isClickable?: { index: number[] };
      contentDocumentIndex?: { index: number[]; value: number[] };
    };
    layout: { nodeIndex: number[]; styles: number[][]; bounds: number[][]; clientRects?: number[][] };
  }>;
}

/** Computed styles requested from DOMSnapshot, in this order. */
export const SNAPSHOT_STYLES = ['cursor', 'display', 'visibility'];

export interface DomIndex {
  facts: Map<number, DomFacts>;
  /** Iframe element backend node id → the frame id of the document it hosts (same process). */
  childFrames: Map<number, string>;
  /** Element subtrees not rendered (display:none, hidden, visibility:hidden), counted once each. */
  hiddenCount: number;
}

/** Tags that are never rendered by design; their missing layout says nothing about hidden content. */
const NON_VISUAL = new Set([
  'HEAD',
  'SCRIPT',
  'STYLE',
  'TEMPLATE',
  'NOSCRIPT',
  'META',
  'LINK',
  'TITLE',
  'BASE',
  'OPTION',
  'OPTGROUP',
  'DATALIST',
  'AREA',
  'PARAM',
  'SOURCE',
  'TRACK',
  'SLOT',
  'COL',
  'COLGROUP',
  'MAP',
  'WBR',
  'BR',
]);

export function indexDomSnapshot(snapshot: DomSnapshotLike): DomIndex {
  const index: DomIndex = { facts: new Map(), childFrames: new Map(), hiddenCount: 0 };
  const origins = documentOrigins(snapshot);
  snapshot.documents.forEach((doc, docIndex) => {
    indexDocument(snapshot.strings, doc, origins[docIndex] ?? { x: 0, y: 0 }, index);
    const content = doc.nodes.contentDocumentIndex;
    const ids = doc.nodes.backendNodeId ?? [];
    content?.index.forEach((nodeIndex, i) => {
      const child = snapshot.documents[content.value[i] ?? -1];
      const backendId = ids[nodeIndex];
      if (child && backendId !== undefined)
        index.childFrames.set(backendId, snapshot.strings[child.frameId] ?? '');
    });
  });
  return index;
}

type Doc = DomSnapshotLike['documents'][number];

/** `contenteditable` values that make an element editable ('' is the bare attribute). */
const EDITABLE_VALUES = new Set(['', 'true', 'plaintext-only']);

function indexDocument(strings: string[], doc: Doc, origin: { x: number; y: number }, out: DomIndex): void {
  const { nodes, layout } = doc;
  const count = nodes.nodeType?.length ?? 0;
  const parents = nodes.parentIndex ?? [];
  const layoutOf = new Int32Array(count).fill(-1);
  layout.nodeIndex.forEach((nodeIndex, k) => (layoutOf[nodeIndex] = k));
  const hasLaidOutChild = new Uint8Array(count);
  for (let i = 0; i < count; i++) if ((layoutOf[i] ?? -1) >= 0) hasLaidOutChild[parents[i] ?? 0] = 1;
  const clickable = new Set(nodes.isClickable?.index ?? []);
  // Nodes come parents first: whether each is inside a contenteditable region, to find the roots.
  const editableAt = new Uint8Array(count);
  const style = (i: number, which: number): string => {
    const k = layoutOf[i] ?? -1;
    return k < 0 ? '' : (strings[layout.styles[k]?.[which] ?? -1] ?? '');
  };
  const laidOutParent = (i: number): number => {
    let p = parents[i] ?? -1;
    while (p >= 0 && (layoutOf[p] ?? -1) < 0) p = parents[p] ?? -1;
    return p;
  };
  for (let i = 0; i < count; i++) {
    if (nodes.nodeType?.[i] !== 1) continue;
    const tag = strings[nodes.nodeName?.[i] ?? -1] ?? '';
    const attrs = readAttributes(strings, nodes.attributes?.[i]);
    const parentEditable = (editableAt[parents[i] ?? -1] ?? 0) === 1;
    const own = attrs.get('contenteditable')?.toLowerCase();
    const editable = own === undefined ? parentEditable : EDITABLE_VALUES.has(own);
    if (editable) editableAt[i] = 1;
    const k = layoutOf[i] ?? -1;
    if (k < 0) {
      if (isHiddenRoot(i, tag, attrs, parents, layoutOf, hasLaidOutChild, strings, nodes.nodeName))
        out.hiddenCount++;
      continue;
    }
    const parent = laidOutParent(i);
    const visibility = style(i, 2);
    if (
      (visibility === 'hidden' || visibility === 'collapse') &&
      parent >= 0 &&
      style(parent, 2) === 'visible'
    )
      out.hiddenCount++;
    const pointerStart = style(i, 0) === 'pointer' && (parent < 0 || style(parent, 0) !== 'pointer');
    const backendId = nodes.backendNodeId?.[i];
    if (backendId === undefined) continue;
    const facts: DomFacts = {
      clickable: clickable.has(i) || pointerStart,
      tabbable: Number.parseInt(attrs.get('tabindex') ?? '', 10) >= 0,
      inline: isInline(style(i, 1)),
      bounds: toBox(layout.bounds[k], origin),
    };
    const cursor = style(i, 0);
    const grabStart = DRAG_CURSORS.has(cursor) && (parent < 0 || style(parent, 0) !== cursor);
    if (attrs.get('draggable') === 'true' || attrs.has('ondragstart') || grabStart) facts.draggable = true;
    if (isDropTarget(attrs)) facts.dropTarget = true;
    if (editable && !parentEditable) facts.editable = true;
    if (tag === 'A') facts.anchor = true;
    const client = layout.clientRects?.[k];
    if (tag === 'IFRAME' && client && client.length >= 2)
      facts.contentOffset = [client[0] ?? 0, client[1] ?? 0];
    const type = attrs.get('type');
    if (tag === 'INPUT' && type !== undefined) facts.inputType = type.toLowerCase();
    const autocomplete = attrs.get('autocomplete');
    if (autocomplete !== undefined) facts.autocomplete = autocomplete.toLowerCase();
    const aria = ariaFacts(attrs);
    if (aria) facts.aria = aria;
    out.facts.set(backendId, facts);
  }
}

/** Cursors a page sets on what can be dragged (sortable items, handles, cards). */
const DRAG_CURSORS = new Set(['grab', '-webkit-grab', 'grabbing', 'move']);

function isDropTarget(attrs: Map<string, string>): boolean {
  if (attrs.has('ondrop') || attrs.has('ondragover') || attrs.has('ondragenter')) return true;
  const effect = attrs.get('aria-dropeffect')?.trim().toLowerCase();
  return effect !== undefined && effect !== '' && effect !== 'none';
}

function isInline(display: string): boolean {
  return display.startsWith('inline') || display === 'contents' || display === 'ruby';
}

/**
 * An element without layout is counted as hidden content when it is the top of a hidden subtree, is
 * meant to be rendered (not a script, an option, a slot…), and none of its children render either
 * (`display: contents` elements have no box of their own but their children do).
 */
function isHiddenRoot(
  i: number,
  tag: string,
  attrs: Map<string, string>,
  parents: number[],
  layoutOf: Int32Array,
  hasLaidOutChild: Uint8Array,
  strings: string[],
  nodeNames: number[] | undefined,
): boolean {
  if (NON_VISUAL.has(tag) || tag !== tag.toUpperCase() || hasLaidOutChild[i]) return false;
  if (tag === 'INPUT' && attrs.get('type')?.toLowerCase() === 'hidden') return false;
  const parent = parents[i] ?? -1;
  if (parent < 0 || (layoutOf[parent] ?? -1) < 0) return false;
  const parentTag = strings[nodeNames?.[parent] ?? -1] ?? '';
  return parentTag !== 'SELECT' && parentTag !== 'HEAD';
}

const ARIA_TOKEN = /^[a-z]{1,20}$/;

/** The ARIA order and state attributes the snapshot shows (Chromium's AX tree leaves them out). */
export function ariaFacts(attrs: Map<string, string>): AriaFacts | undefined {
  const out: AriaFacts = {};
  const current = attrs.get('aria-current')?.trim().toLowerCase();
  if (current !== undefined && current !== 'false' && ARIA_TOKEN.test(current)) out.current = current;
  const sort = attrs.get('aria-sort')?.trim().toLowerCase();
  if (sort === 'ascending' || sort === 'descending' || sort === 'other') out.sort = sort;
  const rowIndex = Number.parseInt(attrs.get('aria-rowindex') ?? '', 10);
  if (rowIndex >= 1) out.rowIndex = rowIndex;
  const rowCount = Number.parseInt(attrs.get('aria-rowcount') ?? '', 10);
  if (rowCount >= 1) out.rowCount = rowCount;
  if (attrs.get('aria-busy')?.trim().toLowerCase() === 'true') out.busy = true;
  const valueText = attrs.get('aria-valuetext')?.replace(/\s+/g, ' ').trim();
  if (valueText) out.valueText = valueText.slice(0, 40);
  return Object.keys(out).length > 0 ? out : undefined;
}

function readAttributes(strings: string[], flat: number[] | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!flat) return out;
  for (let j = 0; j + 1 < flat.length; j += 2)
    out.set((strings[flat[j] ?? -1] ?? '').toLowerCase(), strings[flat[j + 1] ?? -1] ?? '');
  return out;
}

function toBox(rect: number[] | undefined, origin: { x: number; y: number }): Box | undefined {
  if (!rect || rect.length < 4) return undefined;
  const [x = 0, y = 0, w = 0, h = 0] = rect;
  return [x + origin.x, y + origin.y, w, h];
}

/**
 * Where each document's (0,0) lies in the target's root document: the hosting iframe's box, plus its
 * border, minus the child document's own scroll. Parents are resolved before children by recursion.
 */
function documentOrigins(snapshot: DomSnapshotLike): Array<{ x: number; y: number }> {
  const hostOf = new Map<number, { doc: number; node: number }>();
  snapshot.documents.forEach((doc, d) => {
    const content = doc.nodes.contentDocumentIndex;
    content?.index.forEach((node, i) => hostOf.set(content.value[i] ?? -1, { doc: d, node }));
  });
  const origins: Array<{ x: number; y: number } | undefined> = [];
  const originOf = (d: number, depth: number): { x: number; y: number } => {
    const known = origins[d];
    if (known) return known;
    const host = hostOf.get(d);
    const doc = snapshot.documents[d];
    let origin = { x: 0, y: 0 };
    if (host && doc && depth < 32) {
      const parentOrigin = originOf(host.doc, depth + 1);
      const parentLayout = snapshot.documents[host.doc]?.layout;
      const k = parentLayout?.nodeIndex.indexOf(host.node) ?? -1;
      const rect = k >= 0 ? parentLayout?.bounds[k] : undefined;
      const client = k >= 0 ? parentLayout?.clientRects?.[k] : undefined;
      origin = {
        x: parentOrigin.x + (rect?.[0] ?? 0) + (client?.[0] ?? 0) - (doc.scrollOffsetX ?? 0),
        y: parentOrigin.y + (rect?.[1] ?? 0) + (client?.[1] ?? 0) - (doc.scrollOffsetY ?? 0),
      };
    }
    origins[d] = origin;
    return origin;
  };
  snapshot.documents.forEach((_, d) => originOf(d, 0));
  return origins.map((o) => o ?? { x: 0, y: 0 });
}
