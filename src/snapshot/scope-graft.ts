import type { CDPSession } from 'playwright-core';
import type { StepOptions } from './step.js';
import type { AXNodeLike } from './types.js';

/**
 * A scope element Chromium leaves out of its accessibility tree (an ignored element that is not
 * "included in the tree": a custom element whose content lives in its shadow root, `display: contents`)
 * would leave a scoped CDP capture with nothing to keep, while its content is there, parented to an
 * ancestor. The scope is put back as an ignored node between that ancestor and the content, the way the
 * in-page capture (which walks the DOM) sees it, so both captures give the scope the same lines.
 */

/** The backend node ids of the element's subtree, shadow roots and frames' documents included (one call). */
async function subtreeIds(
  session: CDPSession,
  objectId: string,
  step: StepOptions,
): Promise<Set<number> | undefined> {
  interface DomNode {
    backendNodeId: number;
    children?: DomNode[];
    shadowRoots?: DomNode[];
    contentDocument?: DomNode;
  }
  const described = await session
    .send('DOM.describeNode', { objectId, depth: -1, pierce: true }, step)
    .catch(() => undefined);
  if (!described) return undefined;
  const ids = new Set<number>();
  const stack: DomNode[] = [described.node as DomNode];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    ids.add(node.backendNodeId);
    stack.push(...(node.children ?? []), ...(node.shadowRoots ?? []));
    if (node.contentDocument) stack.push(node.contentDocument);
  }
  return ids;
}

/**
 * The nodes with the scope element grafted in when the tree lacks it (unchanged otherwise): an ignored
 * node for it, parented where its topmost descendants were, and those descendants moved under it.
 */
export async function withScopeNode(
  nodes: AXNodeLike[],
  scope: { session: CDPSession; objectId: string; backendNodeId: number },
  step: StepOptions,
): Promise<AXNodeLike[]> {
  if (nodes.some((n) => n.backendDOMNodeId === scope.backendNodeId)) return nodes;
  const inside = await subtreeIds(scope.session, scope.objectId, step);
  return inside ? graftScope(nodes, scope.backendNodeId, inside) : nodes;
}

/** Pure part of {@link withScopeNode}: `inside` holds the backend ids of the scope's DOM subtree. */
export function graftScope(nodes: AXNodeLike[], backendNodeId: number, inside: Set<number>): AXNodeLike[] {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const isInside = (n: AXNodeLike | undefined): boolean =>
    n?.backendDOMNodeId !== undefined &&
    n.backendDOMNodeId !== backendNodeId &&
    inside.has(n.backendDOMNodeId);
  const tops = nodes.filter((n) => isInside(n) && !isInside(byId.get(n.parentId ?? '')));
  const parentId = tops[0]?.parentId;
  const parent = parentId === undefined ? undefined : byId.get(parentId);
  if (!parent || parentId === undefined) return nodes;
  const moved = new Set(tops.filter((n) => n.parentId === parentId).map((n) => n.nodeId));
  const scopeId = `scope-${backendNodeId}`;
  const scopeNode: AXNodeLike = {
    nodeId: scopeId,
    parentId,
    ignored: true,
    backendDOMNodeId: backendNodeId,
    childIds: (parent.childIds ?? []).filter((id) => moved.has(id)),
  };
  const parentChildren: string[] = [];
  for (const id of parent.childIds ?? []) {
    if (!moved.has(id)) parentChildren.push(id);
    else if (!parentChildren.includes(scopeId)) parentChildren.push(scopeId);
  }
  return [
    ...nodes.map((n) =>
      n === parent
        ? { ...n, childIds: parentChildren }
        : moved.has(n.nodeId)
          ? { ...n, parentId: scopeId }
          : n,
    ),
    scopeNode,
  ];
}
