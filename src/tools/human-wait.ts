import { randomUUID } from 'node:crypto';
import { handoffsOf, type Handoff, type HandoffOutcome } from '../engine/handoff.js';
import type { ManagedPage } from '../engine/page.js';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { ToolContext, UrlElicitation } from './define.js';

/**
 * The parts of asking a person that the tool (browser_request_human) and code mode's
 * `human.request` share: the take-over link, the URL elicitation with its progress while the person
 * works, and the page's address after the hand-back.
 */

const TITLE_WAIT_MS = 1000;
const PROGRESS_EVERY_MS = 15_000;

/** The session's take-over view on the dashboard; the capability rides in the fragment (never sent). */
export function takeoverUrl(base: string, handoff: Handoff): string {
  const fragment = new URLSearchParams({ handoff: handoff.token, session: handoff.sessionId });
  return `${base.replace(/#.*$/, '')}#${fragment.toString()}`;
}

/** The dashboard's address, or NOT_SUPPORTED when it is off (a person acts there). */
export function dashboardBase(ctx: ToolContext): string {
  const base = ctx.services.dashboardUrl?.();
  if (base === undefined) {
    throw new BrowserMeshError(
      ErrorCodes.NOT_SUPPORTED,
      'A person acts on the live dashboard, which is off',
      {
        recoveryHint: 'Start the server with --dashboard.',
      },
    );
  }
  return base;
}

/**
 * Sends the link as a URL elicitation and waits until the request ends; then sends
 * `notifications/elicitation/complete`. The client's answer says whether its user opens the link:
 * declining withdraws the request, as does `signal` aborting (the call cancelled).
 */
export async function elicitAndWait(
  ctx: ToolContext,
  elicit: UrlElicitation,
  pending: Handoff,
  url: string,
  signal: AbortSignal | undefined,
): Promise<HandoffOutcome> {
  const handoffs = handoffsOf(ctx.mesh);
  const withdraw = (): void =>
    void (handoffs.get(pending.sessionId) === pending && handoffs.cancel(pending.sessionId));
  const elicitationId = `el_${randomUUID()}`;
  elicit
    .ask({ elicitationId, url, message: pending.reason })
    .then((action) => action === 'accept' || withdraw(), withdraw)
    .catch(() => undefined);
  signal?.addEventListener('abort', withdraw, { once: true });
  // A client that asked for progress hears from the call while the person works, so a request
  // timeout that resets on progress does not end it.
  const progress = ctx.progress;
  const ticker = progress
    ? setInterval(
        () => progress(`waiting for a person (${Math.round((Date.now() - pending.since) / 1000)} s)`),
        PROGRESS_EVERY_MS,
      )
    : undefined;
  try {
    const outcome = await pending.done;
    await elicit.complete(elicitationId).catch(() => undefined);
    return outcome;
  } finally {
    clearInterval(ticker);
    signal?.removeEventListener('abort', withdraw);
  }
}

/** The result of an ended request: how it ended, how long it waited, where the page is now. */
export async function endedResult(ctx: ToolContext, pending: Handoff, outcome: HandoffOutcome) {
  const last = handoffsOf(ctx.mesh).lastOutcome(pending.sessionId);
  const waitedMs = last?.waitedMs ?? Date.now() - pending.since;
  const page = ctx.mesh
    .getSession(pending.sessionId)
    .listPages()
    .find((p) => p.id === pending.pageId);
  return { status: outcome, waitedMs, ...(page ? await whereNow(page) : { url: '', title: '' }) };
}

/** The page's address and title after the hand-back (read without the queue: it only reads). */
export async function whereNow(page: ManagedPage): Promise<{ url: string; title: string }> {
  if (page.isClosed) return { url: '', title: '' };
  const title = await within(
    page.page.title().catch(() => ''),
    TITLE_WAIT_MS,
  );
  return { url: page.page.url(), title: title ?? '' };
}

/** The value, or undefined once `ms` passed or the signal aborted. */
export function within<T>(work: Promise<T>, ms: number, signal?: AbortSignal): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    const onAbort = (): void => resolve(undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    void work.then(
      (value) => resolve(value),
      () => resolve(undefined),
    );
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    void work.finally(done).catch(() => undefined);
  });
}
