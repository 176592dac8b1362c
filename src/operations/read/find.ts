import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { redactorOf } from '../../redaction/session-redact.js';
import { findOnPage, type FindOptions, type FindResult } from '../../snapshot/find.js';
import type { LocatorSpec } from '../locate/locator-spec.js';
import { withScopeElement } from './scope-element.js';

export type { FindOptions, FindResult } from '../../snapshot/find.js';
export { FIND_LIMITS } from '../../snapshot/find.js';

/**
 * Searches the page's accessibility view for text, a regular expression or a role (+ name) and
 * returns only the matches, each with its ref (the snapshot's own) and where it is. `scope` ({ ref }
 * or { locator }, in any frame) keeps the matches inside one element.
 *
 * @example
 * const found = await mesh.runOnPage(sessionId, pageId, 'find', (ctx) => find(ctx, { role: 'button', name: 'Add to cart' }));
 * console.log(found.text); // 1. [button @e812] Add to cart …
 */
export function find(ctx: PageOperationContext, input: FindOptions): Promise<FindResult> {
  const scope = input.scope;
  // A locator scope resolves like every element tool's target; a ref (or both, refused below) is the snapshot layer's.
  const target =
    scope?.locator !== undefined && scope.ref === undefined && input.cursor === undefined
      ? { locator: scope.locator as LocatorSpec }
      : undefined;
  const work = withScopeElement(ctx, target, (scopeElement) =>
    findOnPage(ctx.page, input, {
      deadline: ctx.deadline,
      signal: ctx.signal,
      refTtlMs: ctx.config.refTtlMs,
      capture: ctx.config.snapshotCapture,
      // Matching reads the tree with the session's secrets redacted: no match count is an oracle.
      redact: redactorOf(ctx.session),
      scopeElement,
    }),
  );
  return withDeadline(work, ctx.deadline, ctx.signal);
}
