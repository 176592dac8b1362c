import type { Page } from 'playwright-core';
import type { ManagedPage } from '../engine/page.js';
import type { Session } from '../engine/session.js';

/** How long after a popup is adopted its first request may still be refused. */
const WATCH_MS = 15_000;
/** Popups whose refusal was already recorded on the opener (two paths may see the same one). */
const reported = new WeakSet<Page>();

/** Where a refusal is recorded: a page's observations (capture.ts owns them). */
export interface RefusalSink {
  record(event: {
    source: 'requestFailed';
    timeMs: number;
    method: string;
    resourceType: string;
    failure: string;
  }): void;
}

/** A page's observations, passed in so this file never imports capture.ts (which imports it). */
export type ObservationsOf = (page: ManagedPage) => RefusalSink | undefined;

/**
 * A popup the URL policy refused on its first request shows Chromium's error page, and where the
 * browser's requests are intercepted the refusal may come before the page is adopted, so the popup's
 * own log never sees it. The refusal is therefore also recorded on the opener's log: a requestFailed
 * event with resourceType "popup" and failure BLOCKED_BY_POLICY, never the URL (the opener did not
 * choose it; a page may put anything in it).
 */
export function watchPopupRefusal(popup: ManagedPage, session: Session, lookup: ObservationsOf): void {
  const guard = session.urlGuard;
  // Behind the guard proxy the popup's own failed request is the signal (see recordOnOpener).
  if (!guard?.knowsTargets) return;
  void (async () => {
    const opener = await popup.page.opener();
    if (!opener) return;
    const cdp = await popup.cdp();
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    if (await guard.watchDocumentRefusal(targetInfo.targetId, WATCH_MS))
      recordOnOpener(popup.page, session, lookup);
  })().catch(() => undefined);
}

/** Records a refused first navigation of `popup` on its opener's log, once per popup. */
export function recordOnOpener(popup: Page, session: Session, lookup: ObservationsOf): void {
  // Only before the popup ever showed a document: a later refused navigation is the popup's own.
  if (reported.has(popup) || /^https?:/i.test(popup.url())) return;
  reported.add(popup);
  void popup
    .opener()
    .then((opener) => {
      const managed = opener ? session.findPage(opener) : undefined;
      const obs = managed ? lookup(managed) : undefined;
      obs?.record({
        source: 'requestFailed',
        timeMs: Date.now(),
        method: 'GET',
        resourceType: 'popup',
        failure: 'BLOCKED_BY_POLICY',
      });
    })
    .catch(() => undefined);
}
