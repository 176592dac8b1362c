import type { CDPSession } from 'playwright-core';
import { withScopeNode } from './scope-graft.js';
import type { StepOptions } from './step.js';
import type { AXNodeLike } from './types.js';

/**
 * A scoped snapshot's accessibility tree for the document that holds the scope: the path from that
 * document's root down to the scope element, plus the scope's whole subtree. The builder walks from the
 * root as for a full capture; siblings of the path are simply absent, so a scope on a large page pays for
 * its own subtree, not for the page's tree. Node ids are DOM node ids, stable across the two CDP calls
 * (the subtree's own inline text boxes come from one call only).
 */

export interface ScopeTree {
  session: CDPSession;
  objectId: string;
  /** The frame whose document holds the scope element. */
  frameId: string;
  /** The scope element's backend node id. */
  backendNodeId: number | undefined;
  /** The scope element, its direct children and its ancestors up to the document root. */
  path: AXNodeLike[];
}

interface AXNodeWithFrame extends AXNodeLike {
  frameId?: string;
}

/**
 * The path to the scope element and the frame it lives in, or undefined when the browser cannot say
 * (then the scope's document is captured whole, as before).
 */
export async function locateScopeTree(
  scope: { session: CDPSession; objectId: string },
  step: StepOptions,
): Promise<ScopeTree | undefined> {
  try {
    const { nodes } = await scope.session.send(
      'Accessibility.getPartialAXTree',
      { objectId: scope.objectId, fetchRelatives: true },
      step,
    );
    const root = (nodes as AXNodeWithFrame[]).find((n) => n.parentId === undefined);
    const frameId = root?.frameId;
    if (frameId === undefined || frameId === '') return undefined;
    // The inspected node comes first in Chromium's answer, its relatives after it.
    const backendNodeId = nodes[0]?.backendDOMNodeId;
    return { session: scope.session, objectId: scope.objectId, frameId, backendNodeId, path: nodes };
  } catch {
    return undefined;
  }
}

/**
 * One frame's accessibility nodes: the scoped tree when the scope lives in this frame of this target,
 * else the frame's full tree. A scoped fetch that fails (the element went away meanwhile) falls back to
 * the full tree, so the outcome is the one a full capture would give.
 */
export async function frameTreeNodes(
  session: CDPSession,
  frameId: string,
  scope: ScopeTree | undefined,
  step: StepOptions,
): Promise<AXNodeLike[] | undefined> {
  const home = scope && scope.session === session && scope.frameId === frameId ? scope : undefined;
  if (home) {
    const subtree = await session
      .send('Accessibility.queryAXTree', { objectId: home.objectId }, step)
      .catch(() => undefined);
    const merged = subtree && mergeScopeNodes(home.path, subtree.nodes);
    if (merged) return merged;
  }
  const full = await session.send('Accessibility.getFullAXTree', { frameId }, step).catch(() => undefined);
  const backendNodeId = home?.backendNodeId;
  if (!full || !home || backendNodeId === undefined) return full?.nodes;
  return withScopeNode(full.nodes, { session, objectId: home.objectId, backendNodeId }, step);
}

/**
 * Whether every child the subtree's nodes name came along. A browser that left ignored nodes out of
 * the answer would otherwise lose, silently, the content below them: its full tree is fetched instead.
 */
function isWholeSubtree(nodes: AXNodeLike[]): boolean {
  if (nodes.length === 0) return false;
  const ids = new Set(nodes.map((n) => n.nodeId));
  return nodes.every((n) => (n.childIds ?? []).every((id) => ids.has(id)));
}

/**
 * The path's nodes then the subtree's, each id once (the subtree's version wins: it is the newer one),
 * or undefined when the subtree is not whole. The path's root stays first: it is the document root the
 * builder starts from.
 */
export function mergeScopeNodes(path: AXNodeLike[], subtree: AXNodeLike[]): AXNodeLike[] | undefined {
  if (!isWholeSubtree(subtree)) return undefined;
  const inSubtree = new Set(subtree.map((n) => n.nodeId));
  return [...path.filter((n) => !inSubtree.has(n.nodeId)), ...subtree];
}
