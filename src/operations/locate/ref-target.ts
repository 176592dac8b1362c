import type { Deadline } from '../../engine/deadline.js';
import type { ManagedPage } from '../../engine/page.js';
import { locateRef } from '../../snapshot/resolve.js';
import { OBJECT_GROUP, type ElementTarget } from './remote-element.js';

/**
 * A snapshot ref as an action target, through the snapshot layer's node identity (never re-guessed
 * by role and name). `field` is '' for tools whose ref is a top-level argument.
 */
export function resolveRefTarget(
  page: ManagedPage,
  ref: string,
  deadline: Deadline,
  field: string,
  signal?: AbortSignal,
): Promise<ElementTarget> {
  return resolveRef(page, ref, deadline, { signal, field: field === '' ? 'ref' : `${field}.ref` });
}

export interface ResolvedRef extends ElementTarget {
  /** '@e5' */
  ref: string;
  backendNodeId: number;
  /** CDP frame id of the element's document, and 'main' or the out-of-process iframe's frame id. */
  frameId: string;
  targetKey: string;
}

export interface ResolveRefOptions {
  signal?: AbortSignal | undefined;
  /** Field named in errors, e.g. 'ref' or 'target.ref'. */
  field?: string | undefined;
}

/**
 * @example
 * const el = await resolveRef(ctx.page, '@e5', ctx.deadline);
 * const point = await waitForActionPoint(el, ctx.deadline, { checkEnabled: true });
 */
export async function resolveRef(
  page: ManagedPage,
  ref: string,
  deadline: Deadline,
  options: ResolveRefOptions = {},
): Promise<ResolvedRef> {
  const located = await locateRef(page, ref, {
    step: () => ({ timeout: deadline.stepTimeoutMs(), signal: options.signal }),
    objectGroup: OBJECT_GROUP,
    field: options.field ?? 'ref',
  });
  const { entry } = located;
  return {
    cdp: located.session,
    objectId: located.objectId,
    frameOwners: located.owners.map((o) => ({ cdp: o.session, objectId: o.objectId })),
    description: `ref @${entry.ref}`,
    ref: `@${entry.ref}`,
    backendNodeId: entry.backendNodeId,
    frameId: entry.frameId,
    targetKey: entry.targetKey,
    ...(located.inWorld ? { inWorld: located.inWorld } : {}),
  };
}
