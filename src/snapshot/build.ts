import { axString, cleanText, MAX_NAME_CHARS, statesOf, urlOf, valueOf } from './node-info.js';
import {
  BREAK,
  hasActionableOrStructure,
  interactiveOnly,
  isRegionNamedByHeading,
  normalizeChildren,
  pruneKept,
  textNode,
  type Item,
} from './normalize.js';
import {
  CHILDLESS_ROLES,
  displayRole,
  DROPPED_ROLES,
  EDITOR_HOSTS,
  INLINE_ROLES,
  INTERACTIVE_ROLES,
  NAMED_CONTENT_ROLES,
  NEVER_CLICKABLE,
  ROW_PARENTS,
  TRANSPARENT_ROLES,
  TRANSPARENT_UNLESS_NAMED,
} from './roles.js';
import type {
  AXNodeLike,
  Box,
  DomFacts,
  FrameCapture,
  PageCapture,
  SnapNode,
  TargetCapture,
} from './types.js';
import { inVisualOrder } from './visual-order.js';
import { clickableNode, dropZone, editorPart, editorRoot, inRowOrder } from './widget-nodes.js';

/**
 * Turns the captured accessibility trees (one per frame, stitched through their iframe elements, out-of
 * -process ones included) into the pruned tree the renderer writes. Pruning happens here, at the
 * source: ignored and aria-hidden nodes, empty wrappers, single-child wrappers, inline text boxes and
 * text that repeats a name never become nodes.
 */

/** An iframe element on the way down to a frame: its target and backend node id there. */
export interface FrameOwner {
  targetKey: string;
  backendNodeId: number;
}

export type RefAssigner = (
  target: TargetCapture,
  frame: FrameCapture,
  backendNodeId: number,
  owners: readonly FrameOwner[],
) => string;

export interface BuildResult {
  root: SnapNode;
  ariaHidden: number;
  longText: number;
  /** Iframes whose document was not captured. */
  missingFrames: number;
}

/** Deeper trees are cut here rather than overflow the stack; counted like a maxDepth cut. */
const MAX_TREE_DEPTH = 400;

interface FrameCtx {
  target: TargetCapture;
  frame: FrameCapture;
  byId: Map<string, AXNodeLike>;
  /** Top-document position of this target's root document, for boxes. */
  origin: { x: number; y: number };
  /** Iframe elements from the page down to this frame, outermost first. */
  owners: readonly FrameOwner[];
}

/**
 * `scopeKey` (target|backendNodeId) names a scope element: it is kept as a node of its own, keyed, even
 * where pruning would dissolve it (an unnamed section, a plain div), so a scoped snapshot always finds it.
 */
export function buildTree(capture: PageCapture, assignRef: RefAssigner, scopeKey?: string): BuildResult {
  const builder = new TreeBuilder(capture, assignRef, scopeKey);
  return builder.build();
}

interface PendingRef {
  target: TargetCapture;
  frame: FrameCapture;
  backendNodeId: number;
  owners: readonly FrameOwner[];
}

class TreeBuilder {
  private ariaHidden = 0;
  /** Refs are handed out once the tree is final, in document order, only to nodes that survived pruning. */
  private readonly pending = new Map<SnapNode, PendingRef>();
  private longText = 0;
  private missingFrames = 0;
  private readonly rowIndex = new WeakMap<SnapNode, number>();
  /** How many grid cells the element being built is inside (their items get refs of their own). */
  private cellDepth = 0;
  /** How many contenteditable editors the element being built is inside. */
  private editorDepth = 0;
  /** Items of grid cells given a ref of their own, so a cell can drop the one that only repeats its name. */
  private readonly cellItems = new WeakSet<SnapNode>();
  private readonly onCut = (): void => {
    this.longText++;
  };

  constructor(
    private readonly capture: PageCapture,
    private readonly assignRef: RefAssigner,
    private readonly scopeKey: string | undefined,
  ) {}

  build(): BuildResult {
    const main = this.capture.targets.get('main');
    const frame = main?.frames.find((f) => f.frameId === main.rootFrameId);
    const root: SnapNode = {
      role: 'document',
      name: cleanText(this.capture.title, MAX_NAME_CHARS),
      states: [],
      interactive: false,
      children: [],
    };
    if (main && frame)
      root.children = this.documentChildren(
        { target: main, frame, byId: byId(frame), origin: { x: 0, y: 0 }, owners: [] },
        root,
      );
    this.assignRefs(root);
    return { root, ariaHidden: this.ariaHidden, longText: this.longText, missingFrames: this.missingFrames };
  }

  private assignRefs(root: SnapNode): void {
    const stack = [root];
    while (stack.length > 0) {
      const node = stack.pop();
      if (!node) break;
      const spec = this.pending.get(node);
      if (spec) node.ref = this.assignRef(spec.target, spec.frame, spec.backendNodeId, spec.owners);
      for (let i = node.children.length - 1; i >= 0; i--) {
        const child = node.children[i];
        if (child) stack.push(child);
      }
    }
  }

  private documentChildren(ctx: FrameCtx, parent: SnapNode): SnapNode[] {
    const rootNode = ctx.frame.nodes.find((n) => n.parentId === undefined) ?? ctx.frame.nodes[0];
    if (!rootNode) return [];
    return normalizeChildren(this.children(ctx, rootNode, 1, false), parent, this.onCut);
  }

  private children(ctx: FrameCtx, node: AXNodeLike, depth: number, inSelectPopup: boolean): Item[] {
    const out: Item[] = [];
    const kids: AXNodeLike[] = [];
    for (const id of node.childIds ?? []) {
      const child = ctx.byId.get(id);
      if (child) kids.push(child);
    }
    for (const child of inVisualOrder(kids, ctx.target.dom))
      out.push(...this.item(ctx, child, depth, inSelectPopup));
    return out;
  }

  private item(ctx: FrameCtx, node: AXNodeLike, depth: number, inSelectPopup: boolean): Item[] {
    if (depth > MAX_TREE_DEPTH) return [];
    const isScope = this.isScope(ctx, node);
    if (node.ignored) {
      if (node.ignoredReasons?.some((r) => r.name.startsWith('ariaHidden'))) {
        this.ariaHidden++;
        return [];
      }
      if (!isScope) return this.children(ctx, node, depth + 1, inSelectPopup);
    }
    const axRole = node.ignored
      ? 'generic'
      : typeof node.role?.value === 'string'
        ? node.role.value
        : 'generic';
    if (isScope) return [this.scopeNode(ctx, node, axRole, depth, inSelectPopup)];
    if (DROPPED_ROLES.has(axRole)) return [];
    if (axRole === 'StaticText') return [textNode(axString(node.name))];
    if (axRole === 'LineBreak') return [BREAK];
    const popup = inSelectPopup || axRole === 'MenuListPopup';
    const items = this.itemsOf(ctx, node, axRole, depth, popup);
    return this.element(ctx, node, axRole, items, popup, this.editorDepth > 0);
  }

  private element(
    ctx: FrameCtx,
    node: AXNodeLike,
    axRole: string,
    items: Item[],
    inSelectPopup: boolean,
    inEditor: boolean,
  ): Item[] {
    const backendId = node.backendDOMNodeId;
    const facts = this.factsOf(ctx, node);
    const name = cleanText(axString(node.name), MAX_NAME_CHARS, this.onCut);
    const interactive = INTERACTIVE_ROLES.has(axRole) || (axRole === 'option' && !inSelectPopup);
    // Inside a rich-text editor every element answers clicks; what an agent picks is a paragraph.
    if (inEditor && !interactive) {
      const part = editorPart(axRole, items);
      if (part === BREAK) return [BREAK, ...items, BREAK];
      return part.name === '' ? [] : [this.decorated(ctx, node, part)];
    }
    const transparent =
      TRANSPARENT_ROLES.has(axRole) ||
      (TRANSPARENT_UNLESS_NAMED.has(axRole) && name === '') ||
      isRegionNamedByHeading(axRole, name, items);
    if (!interactive && facts?.editable === true && EDITOR_HOSTS.has(axRole))
      return [
        this.decorated(
          ctx,
          node,
          editorRoot(cleanText(axString(node.name), MAX_NAME_CHARS, this.onCut), items, this.onCut),
        ),
      ];
    // An item inside a grid's cell (an event chip in a calendar day) is picked on its own.
    const cellItem = this.cellDepth > 0 && facts?.anchor === true;
    const acts = facts && (facts.clickable || facts.tabbable || facts.draggable === true || cellItem);
    if (!interactive && acts && !NEVER_CLICKABLE.has(axRole)) {
      const clickable = clickableNode(node, axRole, items, facts, transparent, cellItem);
      if (clickable && cellItem) this.cellItems.add(clickable);
      if (clickable) return [this.decorated(ctx, node, clickable)];
    }
    if (transparent && facts?.dropTarget === true)
      return [this.decorated(ctx, node, dropZone(items, this.onCut))];
    if (transparent) {
      const inline = facts ? facts.inline : INLINE_ROLES.has(axRole);
      return inline ? items : [BREAK, ...items, BREAK];
    }
    if (axRole === 'image' && name === '') return [];
    const out: SnapNode = {
      role: displayRole(axRole, facts?.inputType),
      name,
      states: statesOf(node, axRole, inSelectPopup, facts),
      // A grid is a widget (a calendar's month, a data grid): its cells are what an agent picks,
      // so each has a ref and stays in the interactive view, and still shows what it holds.
      interactive: interactive || axRole === 'gridcell',
      children: [],
    };
    // Only links and buttons stay inside a sentence; form controls keep lines of their own.
    if (facts?.inline && (axRole === 'link' || axRole === 'button')) out.inline = true;
    const value = valueOf(node, axRole, facts, name, this.onCut);
    if (value !== undefined) out.value = value;
    const url = urlOf(node);
    if (url !== undefined && axRole === 'link') out.url = url;
    const dropTarget =
      facts?.dropTarget === true || (axRole === 'region' && !hasActionableOrStructure(items));
    this.decorate(ctx, out, node, out.interactive || NAMED_CONTENT_ROLES.has(axRole) || dropTarget);
    // A kept key also keeps the node through pruning: the scope element must stay findable.
    if (this.isScope(ctx, node)) out.key = `${ctx.target.key}|${backendId ?? ''}`;
    if (axRole === 'Iframe' || axRole === 'IframePresentational')
      out.children = this.frameContent(ctx, out, backendId);
    else out.children = this.childrenOf(axRole, out, items, interactive, facts?.editable === true);
    // An editor's paragraphs show its text, each with a ref: its value would say it all again.
    if (facts?.editable === true && out.children.some((c) => c.role === 'paragraph')) delete out.value;
    // A list of things to drag is where they are dropped (sortable lists, kanban columns).
    if (out.key === undefined && out.children.some((c) => c.states.includes('draggable')))
      this.decorate(ctx, out, node, true);
    // A day number that names its cell (a calendar's `<a aria-label="December 7, 2026">7</a>`) is the cell.
    if (axRole === 'gridcell')
      out.children = out.children.filter((c) => !(this.cellItems.has(c) && c.name === out.name));
    if (facts?.aria?.rowIndex !== undefined) this.rowIndex.set(out, facts.aria.rowIndex);
    if (ROW_PARENTS.has(axRole)) out.children = inRowOrder(out.children, this.rowIndex);
    return pruneKept(axRole, out);
  }

  private isScope(ctx: FrameCtx, node: AXNodeLike): boolean {
    return (
      this.scopeKey !== undefined &&
      node.backendDOMNodeId !== undefined &&
      `${ctx.target.key}|${node.backendDOMNodeId}` === this.scopeKey
    );
  }

  /** The scope element as it would be built, or (where pruning would dissolve it) a keyed container. */
  private scopeNode(
    ctx: FrameCtx,
    node: AXNodeLike,
    axRole: string,
    depth: number,
    inSelectPopup: boolean,
  ): SnapNode {
    const key = `${ctx.target.key}|${node.backendDOMNodeId ?? ''}`;
    const built = node.ignored
      ? []
      : this.element(
          ctx,
          node,
          axRole,
          this.itemsOf(ctx, node, axRole, depth, axRole === 'MenuListPopup'),
          inSelectPopup,
          this.editorDepth > 0,
        );
    const kept = built.find((item): item is SnapNode => item !== BREAK && item.key === key);
    if (kept) return kept;
    const wrapper: SnapNode = {
      role: axRole === 'generic' || axRole === 'none' ? 'generic' : displayRole(axRole, undefined),
      name: cleanText(axString(node.name), MAX_NAME_CHARS, this.onCut),
      states: [],
      interactive: false,
      key,
      children: [],
    };
    const items = built.length > 0 ? built : this.children(ctx, node, depth + 1, inSelectPopup);
    wrapper.children = normalizeChildren(items, wrapper, this.onCut);
    return wrapper;
  }

  /** An element's children, knowing whether they are inside a grid cell or an editor. */
  private itemsOf(ctx: FrameCtx, node: AXNodeLike, axRole: string, depth: number, popup: boolean): Item[] {
    const editor = this.factsOf(ctx, node)?.editable === true;
    if (CHILDLESS_ROLES.has(axRole) && !editor) return [];
    const cell = axRole === 'gridcell';
    if (cell) this.cellDepth++;
    if (editor) this.editorDepth++;
    try {
      return this.children(ctx, node, depth + 1, popup);
    } finally {
      if (cell) this.cellDepth--;
      if (editor) this.editorDepth--;
    }
  }

  /** A node that always has a ref. */
  private decorated(ctx: FrameCtx, node: AXNodeLike, out: SnapNode): SnapNode {
    this.decorate(ctx, out, node, true);
    return out;
  }

  /** Adds the ref (for elements an agent acts on or names), the scope key and the box. */
  private decorate(ctx: FrameCtx, out: SnapNode, node: AXNodeLike, wantsRef: boolean): void {
    const backendId = node.backendDOMNodeId;
    if (backendId === undefined) return;
    const bounds = ctx.target.dom.get(backendId)?.bounds;
    if (bounds)
      out.box = [bounds[0] + ctx.origin.x, bounds[1] + ctx.origin.y, bounds[2], bounds[3]].map(
        Math.round,
      ) as Box;
    if (!wantsRef) return;
    this.pending.set(out, {
      target: ctx.target,
      frame: ctx.frame,
      backendNodeId: backendId,
      owners: ctx.owners,
    });
    out.key = `${ctx.target.key}|${backendId}`;
  }

  private childrenOf(
    axRole: string,
    out: SnapNode,
    items: Item[],
    interactive: boolean,
    editor: boolean,
  ): SnapNode[] {
    if (CHILDLESS_ROLES.has(axRole) && !editor) return [];
    if (interactive)
      return interactiveOnly(
        items,
        axRole === 'combobox' || axRole === 'listbox' || axRole === 'PopUpButton',
      );
    return normalizeChildren(items, out, this.onCut);
  }

  private factsOf(ctx: FrameCtx, node: AXNodeLike): DomFacts | undefined {
    return node.backendDOMNodeId === undefined ? undefined : ctx.target.dom.get(node.backendDOMNodeId);
  }

  /** The document inside an iframe: same process (DOM snapshot link) or its own target. */
  private frameContent(ctx: FrameCtx, iframe: SnapNode, ownerId: number | undefined): SnapNode[] {
    if (ownerId === undefined) return [];
    const owners = [...ctx.owners, { targetKey: ctx.target.key, backendNodeId: ownerId }];
    const localFrameId = ctx.target.localChildFrames.get(ownerId);
    const local = ctx.target.frames.find((f) => f.frameId === localFrameId);
    if (local) return this.documentChildren({ ...ctx, frame: local, byId: byId(local), owners }, iframe);
    const remoteKey = ctx.target.remoteChildTargets.get(ownerId);
    const remote = remoteKey === undefined ? undefined : this.capture.targets.get(remoteKey);
    const frame = remote?.frames.find((f) => f.frameId === remote.rootFrameId);
    if (!remote || !frame) {
      if (localFrameId !== undefined || remoteKey !== undefined) this.missingFrames++;
      return [];
    }
    const owner = ctx.target.dom.get(ownerId);
    const offset = owner?.contentOffset ?? [0, 0];
    const origin = owner?.bounds
      ? { x: owner.bounds[0] + ctx.origin.x + offset[0], y: owner.bounds[1] + ctx.origin.y + offset[1] }
      : ctx.origin;
    return this.documentChildren({ target: remote, frame, byId: byId(frame), origin, owners }, iframe);
  }
}

function byId(frame: FrameCapture): Map<string, AXNodeLike> {
  return new Map(frame.nodes.map((n) => [n.nodeId, n]));
}
