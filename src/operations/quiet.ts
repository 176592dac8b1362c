import type { Page, Request } from 'playwright-core';
import type { PageOperationContext } from '../engine/runtime.js';
import { cancelledError } from '../engine/deadline.js';

/**
 * Quiet-aware sleeps (seed 002): a requested sleep ends once the page has been quiet — no request in
 * flight and no DOM mutation — for `quietMs` (500 ms), and never later than asked. Agents write
 * `waitForTimeout(8000)` "for the page to load"; most pages are ready long before.
 *
 * Event-driven: requests are counted from the page's own events; DOM quiet is one in-page
 * MutationObserver per window that answers at the first mutation or when the window passes, so a
 * changing page is noticed at once and a quiet one costs one round trip per window.
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
  try {
    for (;;) {
      if (ctx.signal.aborted) throw cancelledError();
      const left = end - Date.now();
      if (left <= 0) return done(false);
      if (requests.inflight > 0) {
        await until(requests.next(), left, ctx.signal);
        continue;
      }
      const window = Math.min(quietMs, left);
      const mark = requests.version;
      const watch = options.dom === false ? delay(window) : domQuietFor(ctx, window);
      const calm = await until(
        watch,
        window + 1000,
        ctx.signal,
        requests.next().then(() => false),
      );
      if (calm === true && requests.version === mark && window === quietMs) return done(true);
    }
  } finally {
    requests.dispose();
  }
}

/** Resolves true when the main document saw no mutation for `windowMs`, false at the first one. */
async function domQuietFor(ctx: PageOperationContext, windowMs: number): Promise<boolean> {
  const cdp = await ctx.page.cdp();
  const { result } = await cdp
    .send('Runtime.evaluate', {
      expression: `(${OBSERVE_QUIET})(${Math.floor(windowMs)})`,
      awaitPromise: true,
      returnByValue: true,
    })
    // A navigation destroyed the document under the observer: that is activity.
    .catch(() => ({ result: { value: false } }));
  return result.value === true;
}

const OBSERVE_QUIET = `function (windowMs) {
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => finish(false));
    const timer = setTimeout(() => finish(true), windowMs);
    function finish(quiet) { observer.disconnect(); clearTimeout(timer); resolve(quiet); }
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}`;

/** Requests of this page (all its frames) in flight since the tracker started. */
class RequestTracker {
  version = 0;
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

function delay(ms: number): Promise<boolean> {
  return new Promise((resolve) => setTimeout(() => resolve(true), ms));
}
