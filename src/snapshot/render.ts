import { actionTextNodes, keptTextNode } from './action-text.js';
import type { RenderOptions, SnapNode } from './types.js';

/**
 * Writes the pruned tree as indented lines: `[role @eN state…] name`. Plain text is a line of its own
 * without brackets. Three compactions keep big pages cheap without losing anything an agent acts on:
 * a table row of simple cells is one line (`[row] Alice | Early | Late`); a run of sibling elements
 * of the same role without state is one line (`[link] @e4 Home @e5 About`); and a link inside a
 * sentence stays in its sentence, name quoted (`See [link @e6 "the docs"] first.`).
 */

export interface RenderResult {
  lines: string[];
  /** Nodes left out by maxDepth / maxChildren (whole subtrees counted). */
  maxDepthCut: number;
  maxChildrenCut: number;
  /** False when the retention cap stopped rendering before the end of the tree. */
  complete: boolean;
  /** Refs left out by `maxRefs`. */
  refsCut: number;
}

/**
 * At most this many items share one run line, so one line never grows without bound (and a budget,
 * which cuts whole lines, stays fine-grained). 40 rather than 20: each line repeats its role and
 * indent, ~5 tokens, ~2% of an interactive snapshot of a link-heavy page.
 */
export const MAX_RUN_ITEMS = 40;
const INDENT = '  ';
/** Landmarks a line's context is said by (find's match paths start from the same set). */
export const CONTEXT_ROLES: ReadonlySet<string> = new Set([
  'banner',
  'navigation',
  'main',
  'complementary',
  'contentinfo',
  'search',
  'form',
  'dialog',
  'alertdialog',
  'iframe',
]);
const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

export function renderTree(root: SnapNode, options: RenderOptions, maxTotalChars = 1_000_000): RenderResult {
  const renderer = new Renderer(options, maxTotalChars);
  const keep = options.interactiveOnly && options.textLines === true ? actionTextNodes(root) : undefined;
  const view = options.interactiveOnly ? { ...root, children: interactiveView(root.children, keep) } : root;
  const max = options.maxRefs ?? null;
  const capped = max === null ? { top: view, cut: 0 } : capRefs(view, max);
  renderer.node(capped.top, 0);
  return { ...renderer.result(), refsCut: capped.cut };
}

/**
 * Seed 003's `maxRefs`: the first `max` refs in reading order, interactive elements before named
 * content (headings, tables); the other nodes are written without a ref (their refs still resolve).
 */
export function capRefs(root: SnapNode, max: number): { top: SnapNode; cut: number } {
  const withRef: SnapNode[] = [];
  const walk = (node: SnapNode): void => {
    if (node.ref !== undefined) withRef.push(node);
    node.children.forEach(walk);
  };
  walk(root);
  if (withRef.length <= max) return { top: root, cut: 0 };
  const kept = new Set(
    [...withRef.filter((n) => n.interactive), ...withRef.filter((n) => !n.interactive)].slice(0, max),
  );
  const copy = (node: SnapNode): SnapNode => {
    const out = { ...node, children: node.children.map(copy) };
    if (node.ref !== undefined && !kept.has(node)) delete out.ref;
    return out;
  };
  return { top: copy(root), cut: withRef.length - kept.size };
}

/**
 * Interactive elements, inside the landmarks (and dialogs, iframes) that tell an agent where they are;
 * plus the text nodes in `keep` (an action's snapshot: see action-text.ts).
 */
export function interactiveView(children: readonly SnapNode[], keep?: ReadonlySet<SnapNode>): SnapNode[] {
  const out: SnapNode[] = [];
  // A node continues its original neighbour's line only if that neighbour is still just before it.
  let lastKept = -2;
  children.forEach((child, i) => {
    const kept = keep?.has(child) ? keptTextNode(child) : child.interactive ? child : undefined;
    if (kept) {
      out.push(kept.glue && lastKept !== i - 1 ? { ...kept, glue: false } : kept);
      lastKept = i;
    } else if (child.role !== 'text') {
      const inner = interactiveView(child.children, keep);
      if (CONTEXT_ROLES.has(child.role) && inner.length > 0) out.push({ ...child, children: inner });
      else out.push(...inner);
      if (inner.length > 0) lastKept = -2;
    }
  });
  return out;
}

class Renderer {
  private readonly lines: string[] = [];
  private chars = 0;
  private full = false;
  private depthCut = 0;
  private childrenCut = 0;

  constructor(
    private readonly options: RenderOptions,
    private readonly maxTotalChars: number,
  ) {}

  result(): RenderResult {
    return {
      lines: this.lines,
      maxDepthCut: this.depthCut,
      maxChildrenCut: this.childrenCut,
      complete: !this.full,
      refsCut: 0,
    };
  }

  node(node: SnapNode, depth: number): void {
    if (this.full) return;
    if (node.role === 'text') return this.emit(depth, node.name);
    const row = node.role === 'row' ? this.rowLine(node) : undefined;
    if (row !== undefined) return this.emit(depth, row);
    this.emit(depth, this.label(node));
    this.childList(node.children, depth + 1);
  }

  private childList(children: readonly SnapNode[], depth: number): void {
    if (children.length === 0) return;
    const maxDepth = this.options.maxDepth;
    if (maxDepth !== null && depth > maxDepth) {
      this.depthCut += countNodes(children);
      return;
    }
    const maxChildren = this.options.maxChildren ?? Infinity;
    const shown = children.slice(0, maxChildren);
    for (let i = 0; i < shown.length && !this.full;) {
      const flow = flowAt(shown, i);
      if (flow.length > 1) {
        this.emit(depth, flow.map((n) => (n.role === 'text' ? n.name : this.inlineLabel(n))).join(' '));
        i += flow.length;
        continue;
      }
      const run = this.runAt(shown, i);
      if (run.length > 1) this.emit(depth, this.runLine(run));
      else if (run[0]) this.node(run[0], depth);
      i += Math.max(1, run.length);
    }
    const hidden = children.slice(shown.length);
    if (hidden.length > 0) {
      this.childrenCut += countNodes(hidden);
      this.emit(depth, `… ${hidden.length} more`);
    }
  }

  private emit(depth: number, text: string): void {
    const line = INDENT.repeat(depth) + text;
    this.chars += line.length + 1;
    if (this.chars > this.maxTotalChars) {
      this.full = true;
      return;
    }
    this.lines.push(line);
  }

  /** `[role @eN flags value=… url=… box=…] name` */
  label(node: SnapNode): string {
    const parts = [node.role];
    if (node.ref !== undefined) parts.push(`@${node.ref}`);
    parts.push(...node.states);
    if (node.value !== undefined) parts.push(`value=${formatValue(node.value)}`);
    if (node.url !== undefined && this.options.includeUrls) parts.push(`url=${this.formatUrl(node.url)}`);
    if (node.box !== undefined && node.ref !== undefined && this.options.includeBoundingBoxes)
      parts.push(`box=${node.box.join(',')}`);
    return node.name === '' ? `[${parts.join(' ')}]` : `[${parts.join(' ')}] ${node.name}`;
  }

  /** `[link @e6 "the docs"]`: the label with the name quoted inside, for elements within running text. */
  private inlineLabel(node: SnapNode): string {
    const label = this.label({ ...node, name: '' });
    return node.name === '' ? label : `${label.slice(0, -1)} ${JSON.stringify(node.name)}]`;
  }

  /** Consecutive leaf siblings that can share one line: same role, no state, value or extras. */
  private runAt(children: readonly SnapNode[], start: number): SnapNode[] {
    const first = children[start];
    if (!first || !this.runnable(first)) return first ? [first] : [];
    const run = [first];
    for (let i = start + 1; i < children.length && run.length < MAX_RUN_ITEMS; i++) {
      const next = children[i];
      if (
        !next ||
        next.role !== first.role ||
        !this.runnable(next) ||
        (next.ref === undefined) !== (first.ref === undefined)
      )
        break;
      run.push(next);
    }
    return run;
  }

  private runnable(node: SnapNode): boolean {
    // An editor's paragraphs keep a line each, as its text does.
    if (node.role === 'text' || node.role === 'row' || node.role === 'paragraph') return false;
    if (node.children.length > 0 || node.states.length > 0) return false;
    // Items without refs only share a line as a native select's options.
    if (node.ref === undefined && node.role !== 'option') return false;
    if (node.value !== undefined || node.name === '') return false;
    if (this.options.includeBoundingBoxes && node.box !== undefined && node.ref !== undefined) return false;
    return !(this.options.includeUrls && node.url !== undefined);
  }

  /** Refs separate the names (`@e4 Home @e5 About`); options without refs are joined with ` · `. */
  private runLine(run: SnapNode[]): string {
    const items = run.map((n) => (n.ref === undefined ? n.name : `@${n.ref} ${n.name}`));
    return `[${run[0]?.role ?? ''}] ${items.join(run[0]?.ref === undefined ? ' · ' : ' ')}`;
  }

  /** A row whose cells each hold text or one leaf element, on one line; undefined when it needs lines. */
  private rowLine(row: SnapNode): string | undefined {
    if (row.children.length === 0 || !row.children.every((c) => CELL_ROLES.has(c.role) && isSimpleCell(c)))
      return undefined;
    if (this.options.includeBoundingBoxes) return undefined;
    const cells = row.children.map((cell) => {
      const only = cell.children[0];
      // Every cell of a row has the same role: the row line says it once, each cell shows its ref.
      const own = cell.ref === undefined ? undefined : `@${cell.ref} ${cell.name}`;
      // A cell's own state (a column's sort direction) stays in front of what it holds.
      if (only && cell.states.length > 0) return `${this.label({ ...cell, name: '' })} ${this.label(only)}`;
      if (only) return own === undefined ? this.label(only) : `${own} ${this.label(only)}`;
      if (cell.states.length > 0) return this.label(cell);
      return own ?? cell.name;
    });
    const header = row.children.every((c) => c.role === 'columnheader');
    const head = this.label({ ...row, name: '', states: header ? ['header', ...row.states] : row.states });
    return `${head} ${cells.join(' | ')}`;
  }

  private formatUrl(url: string): string {
    let shown = url;
    try {
      const target = new URL(url);
      const page = new URL(this.options.pageUrl);
      if (target.origin === page.origin) shown = target.pathname + target.search + target.hash;
    } catch {
      // Not a parseable URL: shown as it is.
    }
    return /[\s"\]]/.test(shown) ? JSON.stringify(shown) : shown;
  }
}

/** Text and inline controls glued into one line of running text (only worth it with some text in it). */
function flowAt(children: readonly SnapNode[], start: number): SnapNode[] {
  const flow: SnapNode[] = [];
  for (let i = start; i < children.length; i++) {
    const node = children[i];
    if (!node || (i > start && !node.glue)) break;
    if (node.role !== 'text' && !(node.inline && node.children.length === 0)) break;
    flow.push(node);
  }
  return flow.length > 1 && flow.some((n) => n.role === 'text') ? flow : [];
}

function isSimpleCell(cell: SnapNode): boolean {
  if (cell.children.length === 0) return true;
  const only = cell.children[0];
  return (
    cell.children.length === 1 && only !== undefined && only.role !== 'text' && only.children.length === 0
  );
}

function formatValue(value: NonNullable<SnapNode['value']>): string {
  if (typeof value === 'object') return '••••';
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

export function countNodes(nodes: readonly SnapNode[]): number {
  let n = 0;
  for (const node of nodes) n += 1 + countNodes(node.children);
  return n;
}
