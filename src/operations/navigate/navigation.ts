import type { Frame, Page, Response } from 'playwright-core';
import { recordStep } from '../journal/action-log.js';
import { ErrorCodes, invalidArgument } from '../../errors.js';
import { keepUnstuck, settleValue, unstickPage } from '../../engine/interrupt.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { dialogRouterOf } from '../page-services/dialogs.js';
import { toNavigationError } from '../errors.js';
import { ensureActivityTracker } from '../page-services/page-activity.js';
import { navigationBlocked } from '../../url-policy/index.js';
import { titleLine } from '../../redaction/session-redact.js';

export type LoadState = 'load' | 'domcontentloaded' | 'commit';

/** What a navigation returns: enough to know where the page is, never the page itself. */
export interface NavigationResult {
  url: string;
  title: string;
  status: number | null;
  /** The load state the page had reached when the call returned (see {@link LOAD_GRACE_MS}). */
  loadState: LoadState;
}

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);
/** data: URLs are allowed up to this size (the MCP schema caps every URL at the same length). */
export const MAX_DATA_URL_CHARS = 8192;
/** How long a navigation's result waits for the page's title. */
const TITLE_READ_MS = 1_000;
/** Requests of one URL in all when leftover navigations interrupt it (see navigate). */
const MAX_ATTEMPTS = 3;
/**
 * Without an explicit waitUntil a navigation is done once its document is parsed; `load` is then
 * awaited this long at most. One subresource that never answers (an analytics pixel, a long poll)
 * must not turn a readable page into a timeout.
 */
export const LOAD_GRACE_MS = 1000;

/**
 * Absolute http(s) URLs, `about:blank` and bounded `data:` URLs (as Playwright's and Chrome's MCP
 * servers allow); file:, javascript:, chrome: and every other scheme are refused.
 */
export function checkNavigableUrl(url: string, field = 'url'): string {
  if (url === 'about:blank') return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidArgument(field, 'must be an absolute http(s) URL, about:blank or a data: URL');
  }
  if (parsed.protocol === 'data:') {
    if (url.length > MAX_DATA_URL_CHARS)
      throw invalidArgument(field, `a data: URL may have at most ${MAX_DATA_URL_CHARS} characters`);
    return url;
  }
  if (!ALLOWED_SCHEMES.has(parsed.protocol))
    throw invalidArgument(
      field,
      `scheme ${parsed.protocol} is not allowed; use http(s), about:blank or data:`,
    );
  return parsed.href;
}

/**
 * One navigation step's wait: an explicit `waitUntil` is strict (the deadline turns a missing `load`
 * into OPERATION_TIMEOUT); without one the step waits for the parsed document and `finish` then gives
 * `load` a short grace, so only "nothing usable arrived" is a timeout.
 */
function stepWait(waitUntil: LoadState | undefined): LoadState {
  return waitUntil ?? 'domcontentloaded';
}

/** The state reached: the explicit one, or `load` if it came within the grace, else `domcontentloaded`. */
async function finish(
  ctx: PageOperationContext,
  waitUntil: LoadState | undefined,
  response: Response | null,
): Promise<NavigationResult> {
  let loadState: LoadState = waitUntil ?? 'domcontentloaded';
  if (waitUntil === undefined && !ctx.page.isClosed) {
    const graceMs = Math.min(LOAD_GRACE_MS, ctx.deadline.remainingMs() - 100);
    if (graceMs > 0) {
      const loaded = await ctx.page.page
        .waitForLoadState('load', { timeout: graceMs, signal: ctx.signal })
        .then(() => true)
        .catch(() => false);
      if (loaded) loadState = 'load';
    }
  }
  return { ...(await describe(ctx, response)), loadState };
}

/**
 * Loads `url` in the page. Without `waitUntil` it returns once the document is parsed, after a short
 * grace for `load` ({@link LOAD_GRACE_MS}); the result's `loadState` says which state was reached.
 *
 * @example
 * const { url, status, loadState } = await navigate(ctx, 'https://example.com');
 */
export async function navigate(
  ctx: PageOperationContext,
  url: string,
  waitUntil?: LoadState,
): Promise<NavigationResult> {
  const href = checkNavigableUrl(url);
  const guard = ctx.session.urlGuard;
  // Checked before the browser is asked (a clear error, and nothing sent); the guard proxy checks
  // again on every hop, so a redirect to a refused host fails too.
  await guard?.assertAllowed(href);
  const startedMs = Date.now();
  // A page stuck in a loop must not keep the agent on it: it is unstuck once now, and again each time
  // its loop comes back while the navigation has not committed (see leaving); if it still does not
  // commit, the page's target is replaced (see committedOrReplaced).
  const wasStuck = await unstickPage(ctx.page);
  const unstuck = leaving(ctx, wasStuck);
  let errorPage = watchErrorPage(ctx.page.page);
  try {
    await dialogRouterOf(ctx.page).beforeLeaving();
    // Installed before the new document exists, so its timers are seen from its first script on.
    await ensureActivityTracker(ctx.page);
    const attempt = (): Promise<Response | null> => {
      const page = ctx.page.page;
      return page
        .goto(href, { waitUntil: stepWait(waitUntil), timeout: ctx.deadline.stepTimeoutMs() })
        .catch(async (error: unknown) => {
          const failed = toNavigationError(error);
          // The page was replaced under this attempt (committedOrReplaced): it ends here, untouched.
          if (page !== ctx.page.page) throw failed;
          // Only a failure of the document request itself (the guard refuses at the proxy, or the
          // request interceptor fails it) is the policy's doing; a blocked image during an
          // interrupted navigation is not.
          const viaGuard = /SOCKS|PROXY|TUNNEL|BLOCKED_BY_CLIENT/.test(String(failed.details?.reason ?? ''));
          const blocked = viaGuard ? guard?.blockedSince(startedMs) : undefined;
          const mapped = blocked ? navigationBlocked(blocked) : failed;
          // After a network failure Chromium commits its error page a moment later; wait for it (briefly)
          // so the next operation's navigation is not interrupted by that commit.
          const reason = String(failed.details?.reason ?? '');
          if (reason.startsWith('ERR_') && reason !== 'ERR_ABORTED')
            await errorPage.seen(Math.min(1500, ctx.deadline.remainingMs()));
          // A navigation abandoned at its deadline must not commit later, under the next operation.
          if (mapped.code === ErrorCodes.OPERATION_TIMEOUT) await stopLoading(ctx);
          throw mapped;
        });
    };
    // A leftover navigation (one abandoned earlier at its deadline, or a redirect the page started)
    // can interrupt ours; the caller asked for this URL, so it is requested again, within the same
    // deadline and at most MAX_ATTEMPTS times in all (a page that keeps navigating away still fails).
    const run = (left: number): Promise<Response | null> =>
      attempt().catch((error: unknown) => {
        if (replaced) throw error;
        const interrupted = toNavigationError(error).details?.reason === 'interrupted';
        if (interrupted && left > 1 && !ctx.signal.aborted && ctx.deadline.remainingMs() > 0)
          return run(left - 1);
        throw error;
      });
    let replaced = false;
    const response = await committedOrReplaced(
      ctx,
      wasStuck,
      () => run(MAX_ATTEMPTS),
      async () => {
        replaced = true;
        errorPage.dispose();
        errorPage = watchErrorPage(ctx.page.page);
        await ensureActivityTracker(ctx.page);
        return attempt();
      },
    );
    unstuck.done();
    const finished = await finish(ctx, waitUntil, response);
    recordStep(ctx, { kind: 'goto', url: href });
    return finished;
  } finally {
    unstuck.done();
    errorPage.dispose();
  }
}

/** A navigation not committed this long after it started has its old document watched (keepUnstuck). */
const LEAVING_WATCH_AFTER_MS = 1_000;

/**
 * Keeps the document being left from holding a navigation (see keepUnstuck) until the main frame
 * commits a new one or `done` is called, whichever comes first.
 */
function leaving(ctx: PageOperationContext, wasStuck: boolean): { done(): void } {
  // Only a page that was stuck is watched: on a loaded machine a responsive page can miss a probe,
  // and a termination sent as the new document commits would kill that document's first scripts.
  if (!wasStuck) return { done: () => undefined };
  const page = ctx.page.page;
  const stop = keepUnstuck(ctx.page, LEAVING_WATCH_AFTER_MS);
  const onNavigated = (frame: Frame): void => {
    if (frame === page.mainFrame()) done();
  };
  const done = (): void => {
    stop();
    page.off('framenavigated', onNavigated);
  };
  page.on('framenavigated', onNavigated);
  return { done };
}

/**
 * A navigation away from a page that was stuck when it began and has not committed this long after:
 * the page's target is replaced (see Session.replaceStuckPage).
 */
const REPLACE_STUCK_AFTER_MS = 3_000;

/**
 * Runs `go`; when the page was stuck and the navigation neither commits nor ends within
 * {@link REPLACE_STUCK_AFTER_MS} (a loop that comes back after every termination holds the renderer),
 * the stuck target is closed, a fresh page takes its id, and `again` navigates that one instead.
 */
async function committedOrReplaced<T>(
  ctx: PageOperationContext,
  wasStuck: boolean,
  go: () => Promise<T>,
  again: () => Promise<T>,
): Promise<T> {
  const first = go();
  if (!wasStuck) return first;
  const old = ctx.page.page;
  const moved = await new Promise<boolean>((resolve) => {
    const finish = (value: boolean): void => {
      clearTimeout(timer);
      old.off('framenavigated', onNavigated);
      resolve(value);
    };
    const onNavigated = (frame: Frame): void => {
      if (frame === old.mainFrame()) finish(true);
    };
    const timer = setTimeout(
      () => finish(false),
      Math.min(REPLACE_STUCK_AFTER_MS, ctx.deadline.remainingMs()),
    );
    old.on('framenavigated', onNavigated);
    first.then(
      () => finish(true),
      () => finish(true),
    );
  });
  if (moved || ctx.signal.aborted || ctx.deadline.remainingMs() <= 0) return first;
  first.catch(() => undefined);
  await ctx.session.replaceStuckPage(ctx.page);
  return again();
}

/**
 * A history or reload step, with the document being left kept from holding it. `target` names the
 * URL the step would reach, for a fresh page to load if the stuck one has to be replaced.
 */
async function leave(
  ctx: PageOperationContext,
  go: () => Promise<Response | null>,
  target: () => Promise<string | null>,
): Promise<Response | null> {
  const wasStuck = await unstickPage(ctx.page);
  const left = leaving(ctx, wasStuck);
  // Read before anything is replaced: history lives in the browser process, answered while stuck.
  const fallback = wasStuck ? await target() : null;
  try {
    return await committedOrReplaced(ctx, fallback !== null, go, () =>
      ctx.page.page.goto(fallback ?? 'about:blank', {
        waitUntil: 'domcontentloaded',
        timeout: ctx.deadline.stepTimeoutMs(),
      }),
    );
  } catch (error: unknown) {
    throw toNavigationError(error);
  } finally {
    left.done();
  }
}

/** The URL `delta` steps away in the page's history (null when there is none or it cannot be read). */
async function historyUrl(ctx: PageOperationContext, delta: number): Promise<string | null> {
  const cdp = await settleValue(ctx.page.cdp(), TITLE_READ_MS);
  const history = cdp ? await settleValue(cdp.send('Page.getNavigationHistory'), TITLE_READ_MS) : undefined;
  const entry = history?.entries[history.currentIndex + delta];
  return entry ? entry.url : null;
}

export async function goBack(
  ctx: PageOperationContext,
  waitUntil?: LoadState,
): Promise<NavigationResult & { moved: boolean }> {
  const response = await leave(
    ctx,
    () => ctx.page.page.goBack({ waitUntil: stepWait(waitUntil), timeout: ctx.deadline.stepTimeoutMs() }),
    () => historyUrl(ctx, -1),
  );
  if (response !== null) recordStep(ctx, { kind: 'back' });
  return { ...(await finish(ctx, waitUntil, response)), moved: response !== null };
}

export async function goForward(
  ctx: PageOperationContext,
  waitUntil?: LoadState,
): Promise<NavigationResult & { moved: boolean }> {
  const response = await leave(
    ctx,
    () => ctx.page.page.goForward({ waitUntil: stepWait(waitUntil), timeout: ctx.deadline.stepTimeoutMs() }),
    () => historyUrl(ctx, 1),
  );
  if (response !== null) recordStep(ctx, { kind: 'forward' });
  return { ...(await finish(ctx, waitUntil, response)), moved: response !== null };
}

export async function reload(ctx: PageOperationContext, waitUntil?: LoadState): Promise<NavigationResult> {
  const url = ctx.page.page.url();
  const response = await leave(
    ctx,
    () => ctx.page.page.reload({ waitUntil: stepWait(waitUntil), timeout: ctx.deadline.stepTimeoutMs() }),
    async () => url,
  );
  const finished = await finish(ctx, waitUntil, response);
  recordStep(ctx, { kind: 'reload' });
  return finished;
}

async function stopLoading(ctx: PageOperationContext): Promise<void> {
  const cdp = await ctx.page.cdp().catch(() => undefined);
  await cdp?.send('Page.stopLoading').catch(() => undefined);
}

function watchErrorPage(page: Page): { seen(timeoutMs: number): Promise<void>; dispose(): void } {
  let committed = false;
  let wake: (() => void) | undefined;
  const onNavigated = (frame: Frame): void => {
    if (frame !== page.mainFrame() || !frame.url().startsWith('chrome-error:')) return;
    committed = true;
    wake?.();
  };
  page.on('framenavigated', onNavigated);
  return {
    seen: (timeoutMs) =>
      committed
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          }),
    dispose: () => page.off('framenavigated', onNavigated),
  };
}

async function describe(
  ctx: PageOperationContext,
  response: Response | null,
): Promise<Omit<NavigationResult, 'loadState'>> {
  const page = ctx.page.page;
  // Bounded: a page whose script spins right after load never answers a title read, and the
  // navigation itself did complete.
  const title = (await settleValue(page.title(), TITLE_READ_MS)) ?? '';
  return {
    url: page.url(),
    title: titleLine(ctx.session, title),
    status: response?.status() ?? null,
  };
}
