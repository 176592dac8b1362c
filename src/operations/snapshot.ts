import { withDeadline, type PageOperationContext } from '../engine/runtime.js';
import type { SnapshotInput } from '../snapshot/options.js';
import type { SnapshotResult } from '../snapshot/result.js';
import { takeSnapshot } from '../snapshot/snapshot.js';

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
  return withDeadline(
    takeSnapshot(ctx.page, input, {
      deadline: ctx.deadline,
      signal: ctx.signal,
      refTtlMs: ctx.config.refTtlMs,
    }),
    ctx.deadline,
    ctx.signal,
  );
}
