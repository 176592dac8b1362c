import { axString, cleanText, MAX_NAME_CHARS, statesOf, urlOf, valueOf } from './node-info.js';
import {
  BREAK,
  hasActionableOrStructure,
  interactiveOnly,
  isRegionNamedByHeading,
  joinedText,
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
import type { AXNodeLike, Box, FrameCapture, PageCapture, SnapNode, TargetCapture } from './types.js';
import { inVisualOrder } from './visual-order.js';

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
const MAX_CLICKABLE_TEXT = 150;

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
    const items = CHILDLESS_ROLES.has(axRole) ? [] : this.children(ctx, node, depth + 1, popup);
    return this.element(ctx, node, axRole, items, popup);
  }

  private element(
    ctx: FrameCtx,
    node: AXNodeLike,
    axRole: string,
    items: Item[],
    inSelectPopup: boolean,
  ): Item[] {
    const backendId = node.backendDOMNodeId;
    const facts = backendId === undefined ? undefined : ctx.target.dom.get(backendId);
    const name = cleanText(axString(node.name), MAX_NAME_CHARS, this.onCut);
    const interactive = INTERACTIVE_ROLES.has(axRole) || (axRole === 'option' && !inSelectPopup);
    const transparent =
      TRANSPARENT_ROLES.has(axRole) ||
      (TRANSPARENT_UNLESS_NAMED.has(axRole) && name === '') ||
      isRegionNamedByHeading(axRole, name, items);
    if (!interactive && facts?.editable === true && EDITOR_HOSTS.has(axRole))
      return [this.editor(ctx, node, items)];
    const acts = facts && (facts.clickable || facts.tabbable || facts.draggable === true);
    if (!interactive && acts && !NEVER_CLICKABLE.has(axRole)) {
      const clickable = this.clickable(ctx, node, axRole, items, transparent);
      if (clickable) return [clickable];
    }
    if (transparent && facts?.dropTarget === true) return [this.dropZone(ctx, node, items)];
    if (transparent) {
      const inline = facts ? facts.inline : INLINE_ROLES.has(axRole);
      return inline ? items : [BREAK, ...items, BREAK];
    }
    if (axRole === 'image' && name === '') return [];
    const out: SnapNode = {
      role: displayRole(axRole, facts?.inputType),
      name,
      states: statesOf(node, axRole, inSelectPopup, facts),
      interactive,
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
    this.decorate(ctx, out, node, interactive || NAMED_CONTENT_ROLES.has(axRole) || dropTarget);
    // A kept key also keeps the node through pruning: the scope element must stay findable.
    if (this.isScope(ctx, node)) out.key = `${ctx.target.key}|${backendId ?? ''}`;
    if (axRole === 'Iframe' || axRole === 'IframePresentational')
      out.children = this.frameContent(ctx, out, backendId);
    else out.children = this.childrenOf(axRole, out, items, interactive);
    // A list of things to drag is where they are dropped (sortable lists, kanban columns).
    if (out.key === undefined && out.children.some((c) => c.states.includes('draggable')))
      this.decorate(ctx, out, node, true);
    if (facts?.aria?.rowIndex !== undefined) this.rowIndex.set(out, facts.aria.rowIndex);
    if (ROW_PARENTS.has(axRole)) out.children = this.inRowOrder(out.children);
    return pruneKept(axRole, out);
  }

  /**
   * Grids that sort or scroll by moving rows with CSS keep their DOM order and say the real order with
   * aria-rowindex: rows that carry one are shown in that order (a stable sort; the others keep their place).
   */
  private inRowOrder(children: SnapNode[]): SnapNode[] {
    const indexed = children.filter((c) => this.rowIndex.has(c));
    if (indexed.length < 2) return children;
    const sorted = [...indexed].sort((a, b) => (this.rowIndex.get(a) ?? 0) - (this.rowIndex.get(b) ?? 0));
    let next = 0;
    return children.map((c) => (this.rowIndex.has(c) ? (sorted[next++] ?? c) : c));
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
      : this.element(ctx, node, axRole, this.itemsOf(ctx, node, axRole, depth), inSelectPopup);
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

  private itemsOf(ctx: FrameCtx, node: AXNodeLike, axRole: string, depth: number): Item[] {
    if (CHILDLESS_ROLES.has(axRole)) return [];
    return this.children(ctx, node, depth + 1, axRole === 'MenuListPopup');
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

  private childrenOf(axRole: string, out: SnapNode, items: Item[], interactive: boolean): SnapNode[] {
    if (CHILDLESS_ROLES.has(axRole)) return [];
    if (interactive)
      return interactiveOnly(
        items,
        axRole === 'combobox' || axRole === 'listbox' || axRole === 'PopUpButton',
      );
    return normalizeChildren(items, out, this.onCut);
  }

  /** A div with onclick, cursor:pointer or tabindex, holding only a little text: `[clickable @e3] Open`. */
  private clickable(
    ctx: FrameCtx,
    node: AXNodeLike,
    axRole: string,
    items: Item[],
    transparent: boolean,
  ): SnapNode | undefined {
    if (hasActionableOrStructure(items)) return undefined;
    const name = cleanText(axString(node.name), MAX_NAME_CHARS) || joinedText(items);
    if (name === '' || Array.from(name).length > MAX_CLICKABLE_TEXT) return undefined;
    const facts = node.backendDOMNodeId === undefined ? undefined : ctx.target.dom.get(node.backendDOMNodeId);
    const clicks = facts !== undefined && (facts.clickable || facts.tabbable);
    const role = transparent ? (clicks ? 'clickable' : 'draggable') : displayRole(axRole, undefined);
    const flags = statesOf(node, axRole, false);
    if (clicks && role !== 'clickable') flags.push('clickable');
    if (facts?.draggable && role !== 'draggable') flags.push('draggable');
    const out: SnapNode = {
      role,
      name,
      states: flags,
      interactive: true,
      children: [],
    };
    this.decorate(ctx, out, node, true);
    return out;
  }

  /**
   * The root of a contenteditable region with no role of its own (a rich-text editor): a textbox
   * with a ref to click, type into and select text in, its text shown below it as usual.
   */
  private editor(ctx: FrameCtx, node: AXNodeLike, items: Item[]): SnapNode {
    const name = cleanText(axString(node.name), MAX_NAME_CHARS, this.onCut);
    const out: SnapNode = { role: 'textbox', name, states: [], interactive: true, children: [] };
    out.children = normalizeChildren(items, out, this.onCut);
    this.decorate(ctx, out, node, true);
    return out;
  }

  /** A plain element the page marks as a drop target (ondrop, ondragover…): `[dropzone @e4] Done`. */
  private dropZone(ctx: FrameCtx, node: AXNodeLike, items: Item[]): SnapNode {
    const out: SnapNode = { role: 'dropzone', name: '', states: [], interactive: false, children: [] };
    const text = joinedText(items);
    if (!hasActionableOrStructure(items) && Array.from(text).length <= MAX_CLICKABLE_TEXT) out.name = text;
    else out.children = normalizeChildren(items, out, this.onCut);
    this.decorate(ctx, out, node, true);
    return out;
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
