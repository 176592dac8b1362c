import { withDeadline, type PageOperationContext } from '../engine/runtime.js';
import type { SnapshotInput } from '../snapshot/options.js';
import type { SnapshotResult } from '../snapshot/result.js';
import { takeSnapshot } from '../snapshot/snapshot.js';
import { resolveTarget } from './locate.js';
import type { LocatorSpec } from './locator-spec.js';
import { releaseObjects } from './remote-element.js';

export type { SnapshotInput } from '../snapshot/options.js';
export type { SnapshotResult } from '../snapshot/result.js';
export { SNAPSHOT_LIMITS } from '../snapshot/options.js';

/**
 * The page's accessibility snapshot with refs (`[button @e5] Submit`), bounded at the source. One
 * operation for every face; it runs on the session queue under the operation's deadline.
 *
 * @example
 * const result = await mesh.runOnPage(sessionId, pageId, 'snapshot', (ctx) => snapshot(ctx, { interactiveOnly: true }));
 * console.log(result.snapshot);
 */
export function snapshot(ctx: PageOperationContext, input: SnapshotInput = {}): Promise<SnapshotResult> {
  // A hung page (or an iframe target that never attaches) must not hold the session's queue past the deadline.
  return withDeadline(take(ctx, input), ctx.deadline, ctx.signal);
}

async function take(ctx: PageOperationContext, input: SnapshotInput): Promise<SnapshotResult> {
  const locator = input.scope?.locator;
  // scope: { locator } resolves like every element tool (strict, fast ELEMENT_NOT_FOUND); { ref } is the snapshot's own.
  const element =
    locator !== undefined && input.scope?.ref === undefined && input.cursor === undefined
      ? await resolveTarget(ctx.page, { locator: locator as LocatorSpec }, ctx.deadline, 'scope', ctx.signal)
      : undefined;
  try {
    return await takeSnapshot(ctx.page, input, {
      deadline: ctx.deadline,
      signal: ctx.signal,
      refTtlMs: ctx.config.refTtlMs,
      scopeElement: element && {
        session: element.cdp,
        objectId: element.objectId,
        description: element.description,
      },
    });
  } finally {
    if (element) await releaseObjects([element.cdp, ...element.frameOwners.map((owner) => owner.cdp)]);
  }
}
