import type { Browser, CDPSession } from 'playwright-core';
import type { ManagedPage } from './page.js';

/**
 * The engine's ways to take a page back from whatever it is doing, mildest first. Every step is
 * bounded: a renderer that no longer answers must never make the caller wait with it.
 */

/** One CDP command within `ms`; false when it failed or did not answer in time. */
export function sendWithin(
  session: CDPSession | undefined,
  method: 'Page.stopLoading' | 'Runtime.terminateExecution',
  ms: number,
): Promise<boolean> {
  if (!session) return Promise.resolve(false);
  return settleWithin(session.send(method), ms);
}

/** Whether `promise` settled successfully within `ms` (its late result is ignored). */
export function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}

const STEP_MS = 1_000;

/**
 * Stops the page's loading (a navigation in flight) and, when `terminate` is set, the JavaScript it
 * is running (an endless loop, a blocking evaluation). Uses the page's own CDP session, attached when
 * the page was adopted: a session attached only now would need the busy renderer to answer first.
 */
export async function interruptPage(page: ManagedPage, terminate: boolean): Promise<void> {
  if (page.isClosed) return;
  const cdp = await settleValue(page.cdp(), STEP_MS);
  const steps = [sendWithin(cdp, 'Page.stopLoading', STEP_MS)];
  if (terminate) steps.push(sendWithin(cdp, 'Runtime.terminateExecution', STEP_MS));
  await Promise.all(steps);
}

/**
 * Last resort: asks the browser process itself to close the page targets (it needs nothing from
 * their renderers). Resolves once asked; the page's own close event follows.
 */
export async function closeTargets(browser: Browser, pages: readonly ManagedPage[]): Promise<void> {
  const root = await settleValue(browser.newBrowserCDPSession(), STEP_MS);
  if (!root) return;
  try {
    await Promise.all(
      pages.map(async (page) => {
        const cdp = await settleValue(page.cdp(), STEP_MS);
        const info = cdp ? await settleValue(cdp.send('Target.getTargetInfo'), STEP_MS) : undefined;
        if (info)
          await settleWithin(
            root.send('Target.closeTarget', { targetId: info.targetInfo.targetId }),
            STEP_MS,
          );
      }),
    );
  } finally {
    void root.detach().catch(() => undefined);
  }
}

/** The value of `promise` if it arrives within `ms`, else undefined. */
export function settleValue<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}

/** A page whose main thread does not answer within this long is treated as stuck. */
const RESPONSIVE_PROBE_MS = 500;

/** Whether `promise` settles at all (resolved or rejected) within `ms`: an answer, even an error. */
function answersWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const answered = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(answered, answered);
  });
}

/**
 * One probe of the page's main thread; when it does not answer (and the caller still wants it), its
 * running script is terminated.
 */
async function unstickOnce(cdp: CDPSession, wanted: () => boolean): Promise<'responsive' | 'terminated'> {
  const probe = cdp.send('Runtime.evaluate', { expression: '0', returnByValue: true });
  if ((await answersWithin(probe, RESPONSIVE_PROBE_MS)) || !wanted()) return 'responsive';
  // A page that is only slow (a loaded machine, a legitimate long task) can miss one probe: it is
  // given the same time again before its script is terminated. (A termination sent while no script
  // runs was checked not to carry over to the next script, also under CPU throttling.)
  if ((await answersWithin(probe, RESPONSIVE_PROBE_MS)) || !wanted()) return 'responsive';
  await sendWithin(cdp, 'Runtime.terminateExecution', STEP_MS);
  return 'terminated';
}

/**
 * Before a navigation: a page stuck in a loop never lets a navigation away from it commit (and
 * attaching anything to it fails once the navigation starts), so its script is terminated first.
 * A responsive page costs one round trip to its renderer; a busy page loses a script it was going
 * to lose anyway, since the navigation replaces the document. True when the page was stuck.
 */
export async function unstickPage(page: ManagedPage): Promise<boolean> {
  if (page.isClosed) return false;
  const cdp = await settleValue(page.cdp(), STEP_MS);
  return cdp ? (await unstickOnce(cdp, () => true)) === 'terminated' : false;
}

/**
 * While a navigation away from `page` has not committed, keeps the old document from holding it: a
 * loop that comes back after one termination (an interval re-arming a spin, a spin in `pagehide` or
 * `unload`, which run just before the commit) is terminated again each time it stops answering.
 * Call the returned function once the navigation committed or ended; until then (from
 * `startAfterMs` on) a responsive page costs one probe per half second. The new document is never touched: the caller stops the watch
 * when the main frame commits, before it runs anything.
 */
export function keepUnstuck(page: ManagedPage, startAfterMs = 0): () => void {
  let stopped = false;
  void (async () => {
    const cdp = await settleValue(page.cdp(), STEP_MS);
    // A navigation that commits promptly is never probed again: no termination can reach its page.
    if (startAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, startAfterMs));
    while (cdp && !stopped && !page.isClosed) {
      if ((await unstickOnce(cdp, () => !stopped)) === 'responsive' && !stopped)
        await new Promise((resolve) => setTimeout(resolve, RESPONSIVE_PROBE_MS));
    }
  })();
  return () => {
    stopped = true;
  };
}
