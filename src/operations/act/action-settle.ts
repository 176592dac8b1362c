import type { Request } from 'playwright-core';
import type { Deadline } from '../../engine/deadline.js';
import type { ManagedPage } from '../../engine/page.js';
import { watchNavigation } from '../navigate/nav-settle.js';
import {
  ensureActivityTracker,
  pageClock,
  readActivity,
  waitCausedTimers,
  waitPageQuiet,
} from '../page-services/page-activity.js';

/**
 * When an action is done: once what it set in motion has settled. One tracker per action,
 * used by every face through performAction:
 * - a main-frame navigation it requested (at once or from a timer): until the new document is parsed;
 * - short timers and animation frames its input handlers scheduled (seen in the page, page-activity.ts);
 * - requests started since the action began that can change the document (fetch, XHR, scripts);
 * - then a short DOM-quiet window, so what those callbacks render has landed.
 * An action that caused none of these returns after one look at the page (besides the clock read
 * taken before its input). Waiting is bounded by {@link SETTLE_MAX_MS} inside the call's deadline,
 * and never fails the action: it happened.
 */

/** The longest an action waits for its effects (a slow API call is then reported incomplete). */
export const SETTLE_MAX_MS = 3000;
/** After awaited work ends: this long without a DOM mutation means its rendering has landed. */
export const SETTLE_QUIET_MS = 50;
/** ...but a page that animates by script never goes quiet: look at most this long. */
const SETTLE_QUIET_MAX_MS = 300;
/** Request types whose answer can change the document; images and fonts do not change what an agent reads. */
const AWAITED_TYPES = new Set(['document', 'fetch', 'xhr', 'script']);

/**
 * What an action waited for after its input, so an agent can trust the result that follows. Compact
 * by design (it rides on every action result): only what happened is present, and an action that set
 * nothing in motion carries no report at all (see {@link toSettledReport}).
 */
export interface Settled {
  /** The action navigated the main frame (the result is about the new document). */
  navigation?: true;
  /** Requests it started that were awaited (fetch, XHR, scripts, documents); absent when none. */
  requests?: number;
  /** DOM mutation records in the page since the action began; absent when none (or after a navigation). */
  mutations?: number;
  waitedMs: number;
  /** Present (false) when the bound or the deadline ended the wait with effects still pending. */
  complete?: false;
}

/** The raw counts an activity watch measures. */
interface SettleCounts {
  navigation: boolean;
  requests: number;
  mutations: number;
  waitedMs: number;
  complete: boolean;
}

/**
 * The report an action result carries: undefined when the action caused nothing (no navigation, no
 * awaited request, no mutation, nothing cut short) — then it returned after one look at the page and the
 * page is as it was — otherwise only the non-zero facts and how long it waited.
 */
export function toSettledReport(counts: SettleCounts): Settled | undefined {
  const { navigation, requests, mutations, waitedMs, complete } = counts;
  if (!navigation && requests === 0 && mutations === 0 && complete) return undefined;
  return {
    ...(navigation ? { navigation: true as const } : {}),
    ...(requests > 0 ? { requests } : {}),
    ...(mutations > 0 ? { mutations } : {}),
    waitedMs,
    ...(complete ? {} : { complete: false as const }),
  };
}

export interface ActivityWatch {
  settle(deadline: Deadline, signal?: AbortSignal): Promise<Settled | undefined>;
  dispose(): void;
}

/** Starts watching before the action's input is sent, so nothing it causes can be missed. */
export async function watchActivity(page: ManagedPage): Promise<ActivityWatch> {
  await ensureActivityTracker(page);
  const [nav, since] = await Promise.all([watchNavigation(page), page.cdp().then(pageClock)]);
  const requests = new AwaitedRequests(page);
  const startedAt = Date.now();
  return {
    async settle(deadline, signal) {
      const t0 = Date.now();
      const end = t0 + Math.max(0, Math.min(SETTLE_MAX_MS, deadline.remainingMs() - 100));
      const cdp = await page.cdp();
      // Also the round trip that orders a navigation request the input caused before its answer.
      let activity = await readActivity(cdp, since, Date.now() - startedAt);
      let awaited = false;
      let complete = true;
      for (;;) {
        if (nav.requested || page.isClosed) break;
        const left = end - Date.now();
        const busy = activity.caused > 0 || requests.inflight > 0;
        if (!busy && !awaited) break;
        if (left <= 0 || signal?.aborted) {
          complete = !busy;
          break;
        }
        if (busy) {
          if (activity.caused > 0) await waitCausedTimers(cdp, left);
          else await requests.idle(left);
        } else {
          // The awaited work is over; let what its callbacks render land, then look once more.
          await waitPageQuiet(cdp, SETTLE_QUIET_MS, Math.min(left, SETTLE_QUIET_MAX_MS), true, Infinity);
          awaited = false;
        }
        awaited ||= busy;
        activity = await readActivity(cdp, since, Date.now() - startedAt);
      }
      if (nav.requested) await nav.settle(deadline, signal, true);
      return toSettledReport({
        navigation: nav.committed,
        requests: requests.started,
        mutations: nav.committed ? 0 : activity.mutations,
        waitedMs: Date.now() - t0,
        complete,
      });
    },
    dispose() {
      nav.dispose();
      requests.dispose();
    },
  };
}

/** Requests of the awaited types started since the watch began, and which of them are still open. */
class AwaitedRequests {
  started = 0;
  private readonly open = new Set<Request>();
  private wake: (() => void) | undefined;

  constructor(private readonly page: ManagedPage) {
    page.page.on('request', this.onStart);
    page.page.on('requestfinished', this.onEnd);
    page.page.on('requestfailed', this.onEnd);
  }

  get inflight(): number {
    return this.open.size;
  }

  /** Resolves when none is open any more, or after `maxMs`. */
  idle(maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, maxMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
      if (this.open.size === 0) done();
    });
  }

  dispose(): void {
    this.page.page.off('request', this.onStart);
    this.page.page.off('requestfinished', this.onEnd);
    this.page.page.off('requestfailed', this.onEnd);
    this.wake?.();
  }

  private readonly onStart = (request: Request): void => {
    if (!AWAITED_TYPES.has(request.resourceType())) return;
    this.started++;
    this.open.add(request);
  };

  private readonly onEnd = (request: Request): void => {
    if (this.open.delete(request) && this.open.size === 0) this.wake?.();
  };
}

/** Two actions run as one (an agent tool that focuses, then types): one report covering both. */
export function mergeSettled(first: Settled | undefined, second: Settled | undefined): Settled | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  return toSettledReport({
    navigation: first.navigation === true || second.navigation === true,
    requests: (first.requests ?? 0) + (second.requests ?? 0),
    mutations: second.navigation ? (second.mutations ?? 0) : (first.mutations ?? 0) + (second.mutations ?? 0),
    waitedMs: first.waitedMs + second.waitedMs,
    complete: first.complete !== false && second.complete !== false,
  });
}
