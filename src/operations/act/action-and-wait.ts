import type { Frame, Page, Response } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { PageInfo } from '../../engine/page.js';
import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { pageLimitError } from '../../engine/session.js';
import { sanitizeUrl } from '../../observability/sanitize.js';
import { clickElement, focusElement, type ClickInput } from './actions.js';
import { performAction } from './action-scope.js';
import { dialogRouterOf, type DialogNote, type DialogType } from '../page-services/dialogs.js';
import { comboEvents, dispatchKeyEvents, parseKeyCombo } from './keyboard.js';
import type { TargetSpec } from '../locate/locator-spec.js';
import { LOAD_GRACE_MS } from '../navigate/navigation.js';
import { compileUrlPatternOffLoop } from '../locate/url-match.js';
import { toClickStep, type StepInput } from '../journal/action-log.js';

export type AwaitedEvent =
  | {
      kind: 'navigation';
      url?: string | undefined;
      loadState?: 'commit' | 'domcontentloaded' | 'load' | undefined;
    }
  | { kind: 'response'; url: string; method?: string | undefined; status?: number | undefined }
  | { kind: 'popup' }
  | { kind: 'dialog'; type?: DialogType | undefined; accept: boolean; promptText?: string | undefined };

export type TriggerAction =
  { kind: 'click'; click?: ClickInput | undefined } | { kind: 'press'; key: string };

/** What was observed: only what the caller could not know from its own request. */
export interface ObservedEvent {
  type: AwaitedEvent['kind'];
  url?: string;
  status?: number;
  method?: string;
  page?: PageInfo;
  dialog?: DialogNote;
}

const MAX_URL_CHARS = 2048;

interface Waiter {
  promise: Promise<ObservedEvent>;
  dispose(): void;
}

/**
 * Arms the waiter, then performs one click or key press, then waits: all under the operation's one
 * deadline. Because the waiter exists before the input is sent, an event that follows the action
 * immediately (a fast navigation, a cached response) cannot be missed.
 */
export async function actionAndWait(
  ctx: PageOperationContext,
  target: TargetSpec,
  action: TriggerAction,
  awaited: AwaitedEvent,
): Promise<{ event: ObservedEvent; elapsedMs: number; dialogs?: DialogNote[] }> {
  const started = Date.now();
  const combo = action.kind === 'press' ? parseKeyCombo(action.key, 'key') : undefined;
  const waiter = armWaiter(ctx, awaited);
  try {
    const acted = await performAction(ctx, async (scope) => {
      await scope.withTarget(target, 'target', (element) =>
        combo
          ? focusElement(element)
          : clickElement(ctx, element, action.kind === 'click' ? action.click : undefined),
      );
      if (combo) await dispatchKeyEvents(await ctx.page.cdp(), comboEvents(combo));
      scope.logAs(toTriggerStep(action, awaited));
      return {};
    });
    const event = await withDeadline(waiter.promise, ctx.deadline, ctx.signal);
    return { event, elapsedMs: Date.now() - started, ...(acted.dialogs ? { dialogs: acted.dialogs } : {}) };
  } finally {
    waiter.dispose();
  }
}

/** The log step of the trigger: the click or press, with the dialog it was to answer. */
function toTriggerStep(action: TriggerAction, awaited: AwaitedEvent): StepInput {
  const dialog =
    awaited.kind === 'dialog'
      ? {
          dialog: {
            accept: awaited.accept,
            ...(awaited.promptText ? { promptText: awaited.promptText } : {}),
          },
        }
      : {};
  if (action.kind === 'press') return { kind: 'press', key: action.key, ...dialog };
  return { ...toClickStep(action.click ?? {}), ...dialog };
}

function armWaiter(ctx: PageOperationContext, awaited: AwaitedEvent): Waiter {
  const page = ctx.page.page;
  const options = { timeout: ctx.deadline.stepTimeoutMs(), signal: ctx.signal };
  switch (awaited.kind) {
    case 'navigation':
      return settleLater(navigationWaiter(ctx, page, awaited));
    case 'response':
      return settleLater(responseWaiter(ctx, page, awaited));
    case 'popup':
      return settleLater({ promise: popupWaiter(ctx, options), dispose: () => undefined });
    case 'dialog': {
      const expectation = dialogRouterOf(ctx.page).expect(awaited);
      const promise = withDeadline(expectation.handled, ctx.deadline, ctx.signal).then((dialog) => ({
        type: 'dialog' as const,
        dialog,
      }));
      return settleLater({ promise, dispose: expectation.cancel });
    }
  }
}

/** Keeps a rejection from surfacing as unhandled while the action runs; the caller awaits it after. */
function settleLater(waiter: Waiter): Waiter {
  waiter.promise.catch(() => undefined);
  return waiter;
}

/** The first response that matches; its URL (the page's choice) is matched off the event loop. */
function responseWaiter(
  ctx: PageOperationContext,
  page: Page,
  awaited: Extract<AwaitedEvent, { kind: 'response' }>,
): Waiter {
  const url = compileUrlPatternOffLoop(awaited.url, 'waitFor.url');
  const method = awaited.method?.toUpperCase();
  let onResponse: ((response: Response) => void) | undefined;
  const matched = new Promise<Response>((resolve, reject) => {
    onResponse = (response) => {
      if (method !== undefined && response.request().method() !== method) return;
      if (awaited.status !== undefined && response.status() !== awaited.status) return;
      url(response.url(), { timeoutMs: ctx.deadline.stepTimeoutMs(), signal: ctx.signal }).then(
        (hit) => hit && resolve(response),
        reject,
      );
    };
    page.on('response', onResponse);
  });
  const dispose = (): void => {
    if (onResponse) page.off('response', onResponse);
  };
  const promise = withDeadline(matched, ctx.deadline, ctx.signal)
    .finally(dispose)
    .then((r) => ({
      type: 'response' as const,
      url: sanitizeUrl(r.url(), MAX_URL_CHARS) ?? '',
      status: r.status(),
      method: r.request().method(),
    }));
  return { promise, dispose };
}

function navigationWaiter(
  ctx: PageOperationContext,
  page: Page,
  awaited: Extract<AwaitedEvent, { kind: 'navigation' }>,
): Waiter {
  const url = awaited.url === undefined ? undefined : compileUrlPatternOffLoop(awaited.url, 'waitFor.url');
  let onNavigated: ((frame: Frame) => void) | undefined;
  const committed = new Promise<string>((resolve, reject) => {
    onNavigated = (frame) => {
      if (frame !== page.mainFrame()) return;
      const href = frame.url();
      if (url === undefined) return resolve(href);
      url(href, { timeoutMs: ctx.deadline.stepTimeoutMs(), signal: ctx.signal }).then(
        (hit) => hit && resolve(href),
        reject,
      );
    };
    page.on('framenavigated', onNavigated);
  });
  const promise = withDeadline(committed, ctx.deadline, ctx.signal).then(async (href) => {
    // An explicit loadState is strict; without one, as for browser_navigate: the parsed document, then
    // a short grace for load that is never a failure (one hung pixel must not fail the step).
    const loadState = awaited.loadState ?? 'domcontentloaded';
    if (loadState !== 'commit')
      await page.waitForLoadState(loadState, { timeout: ctx.deadline.stepTimeoutMs(), signal: ctx.signal });
    if (awaited.loadState === undefined)
      await page
        .waitForLoadState('load', {
          timeout: Math.max(1, Math.min(LOAD_GRACE_MS, ctx.deadline.remainingMs() - 100)),
          signal: ctx.signal,
        })
        .catch(() => undefined);
    return { type: 'navigation' as const, url: sanitizeUrl(href, MAX_URL_CHARS) ?? '' };
  });
  return {
    promise,
    dispose: () => {
      if (onNavigated) page.off('framenavigated', onNavigated);
    },
  };
}

/**
 * The page opened by the action, as a managed page of the session (adopted before Playwright's popup
 * event fires). One that would exceed the page limit was already closed by the session: LIMIT_EXCEEDED.
 */
async function popupWaiter(
  ctx: PageOperationContext,
  options: { timeout: number; signal: AbortSignal },
): Promise<ObservedEvent> {
  const refusedBefore = ctx.session.refusedPopups;
  const popup = await ctx.page.page.waitForEvent('popup', options);
  const managed = ctx.session.findPage(popup);
  if (!managed || managed.isClosed) {
    if (ctx.session.refusedPopups > refusedBefore) throw pageLimitError(ctx.config.maxPages);
    throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The popup closed before it could be used', {
      details: { reason: 'popup_closed' },
    });
  }
  // Give the popup its first document before handing it over (bounded by the deadline, never fatal).
  await popup
    .waitForLoadState('domcontentloaded', {
      timeout: Math.max(1, ctx.deadline.remainingMs() - 100),
      signal: options.signal,
    })
    .catch(() => undefined);
  return { type: 'popup', page: managed.toInfo() };
}
