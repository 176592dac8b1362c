import type { Frame, Page, Response } from 'playwright-core';
import { ErrorCodes, invalidArgument } from '../errors.js';
import type { PageOperationContext } from '../engine/runtime.js';
import { navigationBlocked } from '../engine/url-policy/index.js';
import { toNavigationError } from './errors.js';
import { TITLE_MAX_CHARS, toDisplayLine } from '../text.js';

export type LoadState = 'load' | 'domcontentloaded' | 'commit';

/** What a navigation returns: enough to know where the page is, never the page itself. */
export interface NavigationResult {
  url: string;
  title: string;
  status: number | null;
}

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);
/** Requests of one URL in all when leftover navigations interrupt it (see navigate). */
const MAX_ATTEMPTS = 3;

/** Only absolute http(s) URLs; file:, javascript:, data:, chrome: and friends are refused. */
export function checkNavigableUrl(url: string, field = 'url'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidArgument(field, 'must be an absolute http(s) URL');
  }
  if (!ALLOWED_SCHEMES.has(parsed.protocol))
    throw invalidArgument(field, `scheme ${parsed.protocol} is not allowed; use http or https`);
  return parsed.href;
}

export async function navigate(
  ctx: PageOperationContext,
  url: string,
  waitUntil: LoadState = 'load',
): Promise<NavigationResult> {
  const href = checkNavigableUrl(url);
  const guard = ctx.session.urlGuard;
  // Checked before the browser is asked (a clear error, and nothing sent); the guard proxy checks
  // again on every hop, so a redirect to a refused host fails too.
  await guard?.assertAllowed(href);
  const startedMs = Date.now();
  const page = ctx.page.page;
  const errorPage = watchErrorPage(page);
  try {
    const attempt = (): Promise<Response | null> =>
      page.goto(href, { waitUntil, timeout: ctx.deadline.stepTimeoutMs() }).catch(async (error: unknown) => {
        const failed = toNavigationError(error);
        // Only a failure of the document request itself (the guard refuses at the proxy) is the
        // policy's doing; a blocked image during an interrupted navigation is not.
        const viaGuard = /SOCKS|PROXY|TUNNEL/.test(String(failed.details?.reason ?? ''));
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
    // A leftover navigation (one abandoned earlier at its deadline, or a redirect the page started)
    // can interrupt ours; the caller asked for this URL, so it is requested again, within the same
    // deadline and at most MAX_ATTEMPTS times in all (a page that keeps navigating away still fails).
    const run = (left: number): Promise<Response | null> =>
      attempt().catch((error: unknown) => {
        const interrupted = toNavigationError(error).details?.reason === 'interrupted';
        if (interrupted && left > 1 && !ctx.signal.aborted && ctx.deadline.remainingMs() > 0)
          return run(left - 1);
        throw error;
      });
    const response = await run(MAX_ATTEMPTS);
    return await describe(ctx, response);
  } finally {
    errorPage.dispose();
  }
}

export async function goBack(
  ctx: PageOperationContext,
  waitUntil: LoadState = 'load',
): Promise<NavigationResult & { moved: boolean }> {
  const response = await ctx.page.page
    .goBack({ waitUntil, timeout: ctx.deadline.stepTimeoutMs() })
    .catch((error: unknown) => {
      throw toNavigationError(error);
    });
  return { ...(await describe(ctx, response)), moved: response !== null };
}

export async function goForward(
  ctx: PageOperationContext,
  waitUntil: LoadState = 'load',
): Promise<NavigationResult & { moved: boolean }> {
  const response = await ctx.page.page
    .goForward({ waitUntil, timeout: ctx.deadline.stepTimeoutMs() })
    .catch((error: unknown) => {
      throw toNavigationError(error);
    });
  return { ...(await describe(ctx, response)), moved: response !== null };
}

export async function reload(
  ctx: PageOperationContext,
  waitUntil: LoadState = 'load',
): Promise<NavigationResult> {
  const response = await ctx.page.page
    .reload({ waitUntil, timeout: ctx.deadline.stepTimeoutMs() })
    .catch((error: unknown) => {
      throw toNavigationError(error);
    });
  return describe(ctx, response);
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

async function describe(ctx: PageOperationContext, response: Response | null): Promise<NavigationResult> {
  const page = ctx.page.page;
  const title = await page.title().catch(() => '');
  return {
    url: page.url(),
    title: toDisplayLine(title, TITLE_MAX_CHARS),
    status: response?.status() ?? null,
  };
}
