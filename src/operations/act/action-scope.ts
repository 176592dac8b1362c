import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { takeDialogNotes, type DialogNote } from '../page-services/dialogs.js';
import { resolveTarget } from '../locate/locate.js';
import type { TargetSpec } from '../locate/locator-spec.js';
import { watchActivity, type Settled } from './action-settle.js';
import { DetachedError } from './pointer.js';
import { releaseObjects, type ElementTarget } from '../locate/remote-element.js';
import { isLogging, recordStep, type LoggedTarget, type StepInput } from '../journal/action-log.js';
import { describeTarget } from '../locate/best-locator.js';

/** What every action returns: small. `url` only when the action changed it. */
export interface ActionResult {
  completed: true;
  url?: string;
  /** What the action set in motion and was awaited before returning; absent when it caused nothing (see action-settle.ts). */
  settled?: Settled;
  /** Dialogs nobody expected that were handled (dismissed) since the last report. */
  dialogs?: DialogNote[];
}

/** One running action: resolves targets (and remembers them so their CDP objects are released after). */
export class ActionScope {
  private readonly targets: ElementTarget[] = [];
  /** With the action log on: each target field's best locator, chosen before the action touched it. */
  readonly described = new Map<string, LoggedTarget>();
  /** What the action log records if the action succeeds (see logAs). */
  private step: StepInput | undefined;

  /** `describeTargets`: false for reads that are not logged (they skip the locator choice). */
  constructor(
    readonly ctx: PageOperationContext,
    private readonly describeTargets = true,
  ) {}

  /**
   * Names the action for the session's action log: on success, performAction adds it with the
   * targets' best locators and the pages (popups) it opened. Call it from the action's body.
   */
  logAs(step: StepInput): void {
    this.step = step;
  }

  /** The step to record, with its targets; undefined when the body named none. */
  loggedStep(): StepInput | undefined {
    if (!this.step) return undefined;
    const targets = [...this.described.values()];
    return { ...this.step, ...(targets.length > 0 ? { targets } : {}) };
  }

  /** Chooses the target's best locator for the action log (never fails the action). */
  private async describe(field: string, target: ElementTarget): Promise<void> {
    if (!this.describeTargets || !isLogging(this.ctx)) return;
    const best = await describeTarget(this.ctx.page, target).catch(() => undefined);
    if (best) this.described.set(field, best);
    else this.described.delete(field);
  }

  /**
   * Resolves the target and runs `act` on it. If the element is replaced under the action (a re-render),
   * a locator is resolved again (at most twice); a ref is reported stale, never re-guessed.
   */
  async withTarget<R>(
    spec: TargetSpec,
    field: string,
    act: (target: ElementTarget) => Promise<R>,
  ): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      const target = await resolveTarget(this.ctx.page, spec, this.ctx.deadline, field, this.ctx.signal);
      this.targets.push(target);
      await this.describe(field, target);
      try {
        return await act(target);
      } catch (error) {
        if (!(error instanceof DetachedError)) throw error;
        if (spec.ref !== undefined) throw staleRef(field);
        if (attempt >= 2)
          throw new BrowserMeshError(
            ErrorCodes.ELEMENT_NOT_INTERACTABLE,
            `The element (${target.description}) kept being replaced while acting on it`,
            { details: { reason: 'detached' } },
          );
      }
    }
  }

  resolve(spec: TargetSpec, field: string): Promise<ElementTarget> {
    return resolveTarget(this.ctx.page, spec, this.ctx.deadline, field, this.ctx.signal).then((target) => {
      this.targets.push(target);
      return this.describe(field, target).then(() => target);
    });
  }

  /** Releases the CDP objects the targets hold; not awaited by callers' results. */
  release(): void {
    void releaseObjects(this.targets.flatMap((t) => [t.cdp, ...t.frameOwners.map((o) => o.cdp)]));
  }
}

function staleRef(field: string): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.STALE_ELEMENT_REFERENCE,
    "The ref's element is no longer in the page",
    {
      details: { field: field === '' ? 'ref' : `${field}.ref` },
      recoveryHint: 'Take a new browser_snapshot and use its refs.',
    },
  );
}

/**
 * Runs an action with what every action needs around it: an activity watch (so an action returns
 * after what it set in motion — a navigation, requests, short timers — with the new URL), the page's
 * unexpected-dialog notes, and release of the CDP objects it resolved. A body that named its step
 * (`scope.logAs`) is added to the session's action log on success.
 */
export async function performAction<T extends object>(
  ctx: PageOperationContext,
  body: (scope: ActionScope) => Promise<T>,
): Promise<ActionResult & T> {
  const page = ctx.page.page;
  const before = page.url();
  const pagesBefore = isLogging(ctx) ? new Set(ctx.session.listPages().map((p) => p.id)) : undefined;
  const watch = await watchActivity(ctx.page);
  const scope = new ActionScope(ctx);
  try {
    // A hung page must not hold the session's queue slot past the deadline. A caller's cancel is left
    // to the body's own checks, so a cancelled action never overlaps the next one.
    const extra = await withDeadline(body(scope), ctx.deadline);
    const settled = await watch.settle(ctx.deadline, ctx.signal);
    const after = page.isClosed() ? before : page.url();
    const dialogs = takeDialogNotes(ctx.page);
    const step = scope.loggedStep();
    if (step && pagesBefore) {
      const opened = ctx.session.listPages().filter((p) => !pagesBefore.has(p.id));
      recordStep(ctx, { ...step, ...(opened.length > 0 ? { opened: opened.map((p) => p.id) } : {}) });
    }
    return {
      completed: true,
      ...extra,
      ...(after !== before ? { url: after } : {}),
      ...(dialogs.length > 0 ? { dialogs } : {}),
      ...(settled ? { settled } : {}),
    };
  } finally {
    watch.dispose();
    scope.release();
  }
}
