import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import type { SnapshotInput } from '../../snapshot/options.js';
import type { SnapshotResult } from '../../snapshot/result.js';
import { takeSnapshot } from '../../snapshot/snapshot.js';
import { redactorOf } from '../../redaction/session-redact.js';
import type { BuiltLocator, LocatorSpec, TargetSpec } from '../locate/locator-spec.js';
import { withScopeElement } from './scope-element.js';

export type { SnapshotInput } from '../../snapshot/options.js';
export type { SnapshotResult } from '../../snapshot/result.js';
export { SNAPSHOT_LIMITS } from '../../snapshot/options.js';

/**
 * The page's accessibility snapshot with refs (`[button @e5] Submit`), bounded at the source. One
 * operation for every face; it runs on the session queue under the operation's deadline.
 *
 * @example
 * const result = await mesh.runOnPage(sessionId, pageId, 'snapshot', (ctx) => snapshot(ctx, { interactiveOnly: true }));
 * console.log(result.snapshot);
 */
export function snapshot(
  ctx: PageOperationContext,
  input: SnapshotInput = {},
  scopeBuilt?: BuiltLocator,
): Promise<SnapshotResult> {
  // A hung page (or an iframe target that never attaches) must not hold the session's queue past the deadline.
  // A built locator (code mode's locator.snapshot()) scopes like a semantic one: the snapshot layer
  // only checks that a locator scope was given, the element itself arrives resolved.
  const scoped = scopeBuilt === undefined ? input : { ...input, scope: { locator: scopeBuilt.description } };
  return withDeadline(take(ctx, scoped, scopeBuilt), ctx.deadline, ctx.signal);
}

/**
 * What a scoped snapshot that shows nothing says instead of an empty text (which would read as "this
 * section is empty"): every face shows this line.
 */
export function emptyScopeText(result: SnapshotResult): string | undefined {
  if (result.empty !== true) return undefined;
  return `(empty scope: ${result.emptyReason === 'no_content' ? 'the element holds nothing visible' : 'the element is not rendered'})`;
}

async function take(
  ctx: PageOperationContext,
  input: SnapshotInput,
  scopeBuilt: BuiltLocator | undefined,
): Promise<SnapshotResult> {
  const locator = input.scope?.locator;
  // scope: { locator } resolves like every element tool (strict, fast ELEMENT_NOT_FOUND); { ref } is the snapshot's own.
  const target: TargetSpec | undefined =
    locator === undefined || input.scope?.ref !== undefined || input.cursor !== undefined
      ? undefined
      : scopeBuilt !== undefined
        ? { built: scopeBuilt }
        : { locator: locator as LocatorSpec };
  return withScopeElement(ctx, target, (scopeElement) =>
    takeSnapshot(ctx.page, input, {
      deadline: ctx.deadline,
      signal: ctx.signal,
      refTtlMs: ctx.config.refTtlMs,
      capture: ctx.config.snapshotCapture,
      redact: redactorOf(ctx.session),
      // The action view (an action's includeSnapshot) follows the page's last snapshot: incremental.
      incremental: input.textLines === true,
      scopeElement,
    }),
  );
}
