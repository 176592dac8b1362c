import type { Browser } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { Logger } from './logger.js';
import type { Session } from './session.js';

const watched = new WeakSet<Browser>();

/**
 * When a browser disconnects, the sessions on it fail (new sessions get a new browser). Watched once
 * per browser however many sessions share it.
 */
export function watchBrowser(
  browser: Browser,
  sessions: () => Iterable<Session>,
  logger: Logger,
  shuttingDown: () => boolean,
): void {
  if (watched.has(browser)) return;
  watched.add(browser);
  browser.on('disconnected', () => {
    const error = new BrowserMeshError(ErrorCodes.BROWSER_DISCONNECTED, 'The browser disconnected');
    for (const session of sessions()) {
      if (session.browserLease?.browser === browser) session.markFailed(error);
    }
    if (!shuttingDown()) logger.warn('browser_disconnected', { reason: 'disconnected' });
  });
}
