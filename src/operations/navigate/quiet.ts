import type { Page, Request } from 'playwright-core';
import type { PageOperationContext } from '../../engine/runtime.js';
import { cancelledError } from '../../engine/deadline.js';
import { ensureActivityTracker, waitPageQuiet } from '../page-services/page-activity.js';

/**
 * Quiet-aware sleeps (seed 002): a requested sleep ends once the page has been quiet — no request in
 * flight and no DOM mutation — for `quietMs` (500 ms), and never later than asked. Agents write
 * `waitForTimeout(8000)` "for the page to load"; most pages are ready long before.
 *
 * Quiet also means no short timer the page scheduled is still due (page-activity.ts): a sleep must not
 * end at 920 ms when a timer set for 800 ms is about to add the element the script waits for. Timer
 * chains deeper than a few hops (polling, animation loops) do not count, so they cannot pin a sleep.
 *
 * Event-driven: requests are counted from the page's own events; DOM and timer quiet is one in-page
 * wait that every mutation and timer end re-arms, so a quiet page costs one round trip.
 */

export const QUIET_WINDOW_MS = 500;

export interface QuietOptions {
  /** The longest the sleep may last (the deadline still bounds it). */
  maxMs: number;
  /** Count DOM mutations as activity (default true); false gives a network-idle wait. */
  dom?: boolean | undefined;
  quietMs?: number | undefined;
}

export interface QuietResult {
  /** True when the page went quiet before `maxMs`; false when the sleep ran its full length. */
  quiet: boolean;
  elapsedMs: number;
}

/**
 * @example
 * // page.waitForTimeout(8000) in code mode: returns ~0.5 s after the page settles.
 * const { quiet, elapsedMs } = await waitForQuiet(ctx, { maxMs: 8000 });
 */
export async function waitForQuiet(ctx: PageOperationContext, options: QuietOptions): Promise<QuietResult> {
  const started = Date.now();
  const end = started + Math.max(0, Math.min(options.maxMs, ctx.deadline.remainingMs()));
  const quietMs = options.quietMs ?? QUIET_WINDOW_MS;
  const requests = new RequestTracker(ctx.page.page);
  const done = (quiet: boolean): QuietResult => ({ quiet, elapsedMs: Date.now() - started });
  if (options.dom !== false) await ensureActivityTracker(ctx.page);
  // One in-page wait at a time: a request event does not abandon it, it only delays the verdict.
  let pageQuiet: Promise<boolean> | undefined;
  let carried = false;
  try {
    for (;;) {
      if (ctx.signal.aborted) throw cancelledError();
      const left = end - Date.now();
      if (left <= 0) return done(false);
      if (requests.inflight > 0) {
        await until(requests.next(), left, ctx.signal);
        continue;
      }
      const netCalmMs = Date.now() - requests.lastActivityAt;
      if (netCalmMs < quietMs) {
        await until(requests.next(), Math.min(left, quietMs - netCalmMs), ctx.signal);
        continue;
      }
      pageQuiet ??=
        options.dom === false
          ? Promise.resolve(true)
          : pageQuietFor(ctx, quietMs, left, Date.now() - started);
      const mark = requests.version;
      const calm = await until(
        pageQuiet,
        left + 1000,
        ctx.signal,
        requests.next().then(() => undefined),
      );
      if (requests.version !== mark) {
        carried = true;
        continue;
      }
      pageQuiet = undefined;
      // An answer that may date from before a request event is asked again (answered at once if calm).
      if (calm === true && !carried) return done(true);
      carried = false;
    }
  } finally {
    requests.dispose();
  }
}

/** In-page: DOM and the page's short timers quiet for `windowMs` (from `agoMs` ago), within `maxMs`. */
async function pageQuietFor(
  ctx: PageOperationContext,
  windowMs: number,
  maxMs: number,
  agoMs: number,
): Promise<boolean> {
  return waitPageQuiet(await ctx.page.cdp(), windowMs, maxMs, false, agoMs);
}

/** Requests of this page (all its frames) in flight since the tracker started. */
class RequestTracker {
  version = 0;
  /** When a request last started or ended (the tracker's start counts as one: nothing is known before). */
  lastActivityAt = Date.now();
  private readonly open = new Set<Request>();
  private wakers: Array<() => void> = [];

  constructor(private readonly page: Page) {
    page.on('request', this.started);
    page.on('requestfinished', this.ended);
    page.on('requestfailed', this.ended);
  }

  get inflight(): number {
    return this.open.size;
  }

  /** Resolves at the next request start or end. */
  next(): Promise<void> {
    return new Promise((resolve) => this.wakers.push(resolve));
  }

  dispose(): void {
    this.page.off('request', this.started);
    this.page.off('requestfinished', this.ended);
    this.page.off('requestfailed', this.ended);
    this.bump();
  }

  private readonly started = (request: Request): void => {
    this.open.add(request);
    this.bump();
  };

  private readonly ended = (request: Request): void => {
    this.open.delete(request);
    this.bump();
  };

  private bump(): void {
    this.version++;
    this.lastActivityAt = Date.now();
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }
}

/** `promise` (or `other`, whichever first), or undefined after `ms`; rejects on cancellation. */
function until<T>(
  promise: Promise<T>,
  ms: number,
  signal: AbortSignal,
  other?: Promise<T>,
): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    const finish = (settle: () => void): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = (): void => finish(() => reject(cancelledError()));
    const timer = setTimeout(() => finish(() => resolve(undefined)), Math.max(0, ms));
    signal.addEventListener('abort', onAbort, { once: true });
    for (const p of other ? [promise, other] : [promise]) {
      p.then(
        (value) => finish(() => resolve(value)),
        (error: unknown) => finish(() => reject(error)),
      );
    }
  });
}
