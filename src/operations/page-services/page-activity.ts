import type { CDPSession } from 'playwright-core';
import type { ManagedPage } from '../../engine/page.js';
import { ensureListenersHook } from '../../snapshot/page-world.js';
import { ACTIVITY_SOURCE, OBSERVE_QUIET, TRACKER_KEY } from './page-activity-source.js';

/**
 * The Node half of the page-activity tracker (page-activity-source.ts is what runs in the page):
 * installing it once per page, and the three questions callers ask it — what is pending now, wait
 * until the caused work is done, wait until the page is quiet.
 */

/** What the page reports about itself (see ACTIVITY_SOURCE). */
export interface PageActivity {
  /** Pending short timers, frame callbacks and fetch/XHR requests caused by input handling (chain depth capped). */
  caused: number;
  /** Pending short timers of any origin (chain depth capped): what a quiet-aware sleep waits for. */
  timers: number;
  /** DOM mutation records since the moment the caller gave (`agoMs` before the call, as the page counts). */
  mutations: number;
}

/** Resolves once no caused short timer is pending (true), or after `maxMs` (false). */
export async function waitCausedTimers(cdp: CDPSession, maxMs: number): Promise<boolean> {
  const { result } = await cdp
    .send('Runtime.evaluate', {
      expression: trackerCall(
        `until(() => window[Symbol.for(${JSON.stringify(TRACKER_KEY)})].count(true) === 0, ${Math.floor(maxMs)})`,
        'true',
      ),
      awaitPromise: true,
      returnByValue: true,
    })
    .catch(() => ({ result: { value: false } }));
  return result.value === true;
}

/** An expression that evaluates `call` on the tracker, or `fallback` where it is not installed. */
export function trackerCall(call: string, fallback: string): string {
  return `(() => { const t = window[Symbol.for(${JSON.stringify(TRACKER_KEY)})]; return t ? t.${call} : ${fallback}; })()`;
}

const INSTALLED = Symbol('browsermesh.activityTracker');

/**
 * Installs the tracker in the page once: for every later document before its own scripts, and in the
 * current document now (whose earlier timers it cannot see). Never fatal: without a tracker, actions
 * and sleeps fall back to what the engine sees from outside (navigations, requests).
 */
export function ensureActivityTracker(page: ManagedPage): Promise<void> {
  return page.state(INSTALLED, () =>
    (async () => {
      const cdp = await page.cdp();
      // Scripts for new documents are kept by the Page domain of this session.
      await cdp.send('Page.enable').catch(() => undefined);
      await cdp
        .send('Page.addScriptToEvaluateOnNewDocument', { source: `(${ACTIVITY_SOURCE})();` })
        .catch(() => undefined);
      await cdp.send('Runtime.evaluate', { expression: `(${ACTIVITY_SOURCE})()` }).catch(() => undefined);
      // The snapshot's click-listener hook must also run before the page's scripts (page-world.ts).
      await ensureListenersHook(page);
    })(),
  );
}

/**
 * The page's own clock now, to count its activity from (undefined when it does not answer). Taken
 * in the page: a window measured on this side would start late by however long the page took to run
 * the read, and drop what happened at once (a loaded machine: an action's own mutations went unseen).
 */
export async function pageClock(cdp: CDPSession): Promise<number | undefined> {
  const { result } = await cdp
    .send('Runtime.evaluate', { expression: 'Date.now()', returnByValue: true })
    .catch(() => ({ result: { value: undefined } }));
  return typeof result.value === 'number' ? result.value : undefined;
}

/**
 * One round trip: the page's pending work and the mutations since `since` on the page's clock (see
 * pageClock), or of the last `agoMs` when that is unknown (zeros without a tracker).
 */
export async function readActivity(
  cdp: CDPSession,
  since: number | undefined,
  agoMs: number,
): Promise<PageActivity> {
  // A page timestamp or a duration, never ours: a remote browser's clock may differ from ours.
  const from =
    since === undefined ? `Date.now() - ${Math.max(0, Math.floor(agoMs))}` : String(Math.floor(since));
  const { result } = await cdp
    .send('Runtime.evaluate', {
      expression: trackerCall(`report(${from})`, 'null'),
      returnByValue: true,
    })
    .catch(() => ({ result: { value: null } }));
  const value = result.value as PageActivity | null;
  return value ?? { caused: 0, timers: 0, mutations: 0 };
}

/**
 * Resolves true once the page went `windowMs` (counted from `agoMs` before the call at the earliest)
 * without a DOM mutation or timer end and has no pending short timer (only those an input caused
 * when `causedOnly`); false at `maxMs`. A navigation that destroys the
 * document under the wait answers false: that is activity.
 */
export async function waitPageQuiet(
  cdp: CDPSession,
  windowMs: number,
  maxMs: number,
  causedOnly: boolean,
  agoMs: number,
): Promise<boolean> {
  const { result } = await cdp
    .send('Runtime.evaluate', {
      expression: trackerCall(
        `quiet(${Math.floor(windowMs)}, ${Math.floor(maxMs)}, ${causedOnly}, Date.now() - ${Math.floor(agoMs)})`,
        `(${OBSERVE_QUIET})(${Math.floor(windowMs)})`,
      ),
      awaitPromise: true,
      returnByValue: true,
    })
    .catch(() => ({ result: { value: false } }));
  return result.value === true;
}
