import type { PageOperationContext } from '../../engine/runtime.js';
import type { SnapshotContext } from '../../snapshot/snapshot.js';
import { resolveTarget } from '../locate/locate.js';
import type { TargetSpec } from '../locate/locator-spec.js';
import { releaseObjects } from '../locate/remote-element.js';

/**
 * Runs a scoped read (snapshot, find) with its scope element resolved from a locator, as every element
 * tool resolves one (strict, fast ELEMENT_NOT_FOUND, any frame), and released afterwards. Without a
 * target the read runs unscoped by element (a ref scope is the snapshot layer's own).
 */
export async function withScopeElement<T>(
  ctx: PageOperationContext,
  target: TargetSpec | undefined,
  read: (element: SnapshotContext['scopeElement']) => Promise<T>,
): Promise<T> {
  const element =
    target === undefined
      ? undefined
      : await resolveTarget(ctx.page, target, ctx.deadline, 'scope', ctx.signal);
  try {
    return await read(
      element && { session: element.cdp, objectId: element.objectId, description: element.description },
    );
  } finally {
    if (element) await releaseObjects([element.cdp, ...element.frameOwners.map((owner) => owner.cdp)]);
  }
}
