import type { CDPSession } from 'playwright-core';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../errors.js';
import type { ManagedPage } from '../engine/page.js';
import type { StepOptions } from './capture.js';
import { snapshotState, targetSession } from './page-state.js';
import { isPageNodeId, resolvePageNode } from './page-world.js';
import { normalizeRef, type RefEntry } from './refs.js';

/**
 * Turns a ref back into the live node it was issued for, through the browser's own node identity:
 * the backend node id in the CDP target that owns it, checked against the document (frame +
 * loaderId) it was seen in. Anything else — a ref this page never issued (another page's or
 * session's), a navigated or removed frame, a node the document dropped, an expired ref — is
 * STALE_ELEMENT_REFERENCE. A ref is never re-guessed by role or name.
 */

export interface RemoteNode {
  session: CDPSession;
  objectId: string;
}

export interface LocatedRef extends RemoteNode {
  entry: RefEntry;
  /** The element in its document's capture world, when the ref is an in-page node (kept in the group). */
  inWorld?: string | undefined;
  /** The iframe elements from the page down to the element's frame, outermost first. */
  owners: RemoteNode[];
}

export interface LocateOptions {
  step: () => StepOptions;
  /** Objects are created in this group so the caller can release them after the operation. */
  objectGroup?: string;
  /** Reported as the field in errors (e.g. 'ref', 'scope.ref'). */
  field?: string;
}

export async function locateRef(page: ManagedPage, ref: string, options: LocateOptions): Promise<LocatedRef> {
  const field = options.field ?? 'ref';
  const name = normalizeRef(ref);
  if (name === undefined) throw invalidArgument(field, 'must be a snapshot ref like @e5');
  const state = snapshotState(page);
  const entry = state.refs.get(name);
  if (!entry) throw staleRef(name, 'unknown', field);
  if (state.refTtlMs > 0 && Date.now() - entry.seenAt > state.refTtlMs)
    throw staleRef(name, 'expired', field);
  const sessions = await Promise.all(
    [entry.targetKey, ...entry.owners.map((o) => o.targetKey)].map((key) => sessionFor(page, key)),
  );
  const [session, ...ownerSessions] = sessions;
  if (!session || ownerSessions.some((s) => s === undefined)) throw staleRef(name, 'frame_gone', field);
  const resolve = (
    s: CDPSession,
    backendNodeId: number,
  ): Promise<{ objectId: string | undefined; inWorld?: string | undefined } | undefined> =>
    isPageNodeId(backendNodeId)
      ? resolvePageNode(page, s, backendNodeId, options.step(), options.objectGroup)
      : s
          .send(
            'DOM.resolveNode',
            { backendNodeId, ...(options.objectGroup ? { objectGroup: options.objectGroup } : {}) },
            options.step(),
          )
          .then((r) => ({ objectId: r.object.objectId }))
          .catch(() => undefined);
  const [found, loaderId, ...ownersFound] = await Promise.all([
    resolve(session, entry.backendNodeId),
    currentLoaderId(session, entry.frameId, options.step()),
    ...entry.owners.map((o, i) => resolve(ownerSessions[i] as CDPSession, o.backendNodeId)),
  ]);
  if (loaderId !== entry.loaderId) throw staleRef(name, 'navigated', field);
  const objectId = found?.objectId;
  const ownerIds = ownersFound.map((o) => o?.objectId);
  if (objectId === undefined || ownerIds.some((id) => id === undefined))
    throw staleRef(name, 'detached', field);
  const owners = entry.owners.map((_, i) => ({
    session: ownerSessions[i] as CDPSession,
    objectId: ownerIds[i] as string,
  }));
  return { entry, session, objectId, owners, ...(found?.inWorld ? { inWorld: found.inWorld } : {}) };
}

async function sessionFor(page: ManagedPage, key: string): Promise<CDPSession | undefined> {
  if (key === 'main') return page.cdp();
  const target = snapshotState(page).targets.get(key);
  return target ? targetSession(page, target) : undefined;
}

async function currentLoaderId(
  session: CDPSession,
  frameId: string,
  step: StepOptions,
): Promise<string | undefined> {
  const { frameTree } = await session
    .send('Page.getFrameTree', undefined, step)
    .catch(() => ({ frameTree: undefined }));
  const stack = frameTree ? [frameTree] : [];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) break;
    if (node.frame.id === frameId) return node.frame.loaderId;
    stack.push(...(node.childFrames ?? []));
  }
  return undefined;
}

const STALE_WHY: Record<string, string> = {
  unknown: 'was not issued by a snapshot of this page (refs belong to one page and document)',
  expired: 'has expired',
  frame_gone: 'belongs to a frame that is gone',
  navigated: 'belongs to a document that has since navigated',
  detached: 'points at an element that is no longer in the page',
};

/** STALE_ELEMENT_REFERENCE for a ref, with the reason as a stable code in details. */
export function staleRef(ref: string, reason: string, field = 'ref'): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.STALE_ELEMENT_REFERENCE,
    `Ref @${ref} ${STALE_WHY[reason] ?? 'is stale'}`,
    {
      details: { ref: `@${ref}`, reason, field },
      recoveryHint: 'Take a new browser_snapshot of this page and use a ref from it.',
    },
  );
}
