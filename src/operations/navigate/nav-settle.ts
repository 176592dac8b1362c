import type { CDPSession, Frame } from 'playwright-core';
import type { Deadline } from '../../engine/deadline.js';
import type { ManagedPage } from '../../engine/page.js';

const PAGE_EVENTS = Symbol('browsermesh.pageEvents');

/** Page domain events on the page's CDP session, enabled once per page; and the main frame's id. */
function pageEvents(page: ManagedPage): Promise<{ cdp: CDPSession; mainFrameId: string }> {
  return page.state(PAGE_EVENTS, () =>
    (async () => {
      const cdp = await page.cdp();
      await cdp.send('Page.enable');
      const { frameTree } = await cdp.send('Page.getFrameTree');
      return { cdp, mainFrameId: frameTree.frame.id };
    })(),
  );
}

export interface NavigationWatch {
  /** Whether the main frame was asked to navigate (true once seen; reliable after a round trip to the page). */
  readonly requested: boolean;
  /** Whether a requested navigation committed a new document. */
  readonly committed: boolean;
  /**
   * If the action asked the main frame to navigate, waits (within the deadline) until the new document
   * is parsed or the navigation is dropped. `ordered`: the caller already made a round trip to the
   * page after the action, so the navigation request (if any) has been seen.
   */
  settle(deadline: Deadline, signal?: AbortSignal, ordered?: boolean): Promise<void>;
  dispose(): void;
}

/**
 * Watches for a main-frame navigation requested while an action runs (a link, a form submit, a script
 * setting location). An action that started a navigation waits for the new document to be parsed
 * (or for the navigation to be dropped: a 204, a download, a cancelled beforeunload) instead of
 * returning mid-navigation, and no fixed delay is spent when nothing navigates.
 */
export async function watchNavigation(page: ManagedPage): Promise<NavigationWatch> {
  const { cdp, mainFrameId } = await pageEvents(page);
  let requested = false;
  let done = false;
  let committed = false;
  let wake: (() => void) | undefined;
  const finish = (): void => {
    if (!requested) return;
    done = true;
    wake?.();
  };
  const onRequested = (e: { frameId: string; disposition: string }): void => {
    if (e.frameId !== mainFrameId || e.disposition !== 'currentTab') return;
    requested = true;
    done = false;
  };
  const onStopped = (e: { frameId: string }): void => {
    if (e.frameId === mainFrameId) finish();
  };
  const onCommitted = (frame: Frame): void => {
    if (frame !== page.page.mainFrame()) return;
    if (requested) committed = true;
    finish();
  };
  cdp.on('Page.frameRequestedNavigation', onRequested);
  cdp.on('Page.frameStoppedLoading', onStopped);
  cdp.on('Page.navigatedWithinDocument', onStopped);
  page.page.on('framenavigated', onCommitted);
  page.page.on('close', finish);
  /** Resolves once the requested navigation commits or is dropped, at the deadline, or on abort. */
  const untilCommittedOrDropped = (deadline: Deadline, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve) => {
      const stop = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
        resolve();
      };
      const timer = setTimeout(stop, deadline.remainingMs());
      signal?.addEventListener('abort', stop, { once: true });
      wake = stop;
      if (done) stop();
    });
  return {
    get requested() {
      return requested;
    },
    get committed() {
      return committed;
    },
    async settle(deadline, signal, ordered = false) {
      // The input's answer and the renderer's navigation request travel on different channels. One
      // round trip to the renderer on this session orders them: its answer comes after the request.
      if (!ordered) await cdp.send('Runtime.evaluate', { expression: '0' }).catch(() => undefined);
      if (requested && !done) await untilCommittedOrDropped(deadline, signal);
      // A new document committed: wait until it is parsed (DOMContentLoaded, not every image), so
      // the next read sees the page the action led to and not a half-built one. Bounded by the
      // deadline with room to report, and never fatal: the action itself has happened.
      if (committed && !page.isClosed)
        await page.page
          .waitForLoadState('domcontentloaded', {
            timeout: Math.max(1, deadline.remainingMs() - 100),
            signal,
          })
          .catch(() => undefined);
    },
    dispose() {
      cdp.off('Page.frameRequestedNavigation', onRequested);
      cdp.off('Page.frameStoppedLoading', onStopped);
      cdp.off('Page.navigatedWithinDocument', onStopped);
      page.page.off('framenavigated', onCommitted);
      page.page.off('close', finish);
    },
  };
}
