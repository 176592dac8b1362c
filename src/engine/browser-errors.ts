import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../errors.js';

/** Playwright errors are translated in one place: their text may quote the page, so it is dropped. */
export function toBrowserError(error: unknown, message: string): BrowserMeshError {
  if (isBrowserMeshError(error)) return error;
  const text = error instanceof Error ? error.message : '';
  if (/Browser has been closed|browser has disconnected/i.test(text)) {
    return new BrowserMeshError(ErrorCodes.BROWSER_DISCONNECTED, `${message}: the browser went away`, {
      cause: error,
    });
  }
  if (/Target page, context or browser has been closed|Target closed/i.test(text)) {
    return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, `${message}: the page was closed`, {
      cause: error,
      details: { reason: 'target_closed' },
    });
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new BrowserMeshError(ErrorCodes.OPERATION_TIMEOUT, `${message}: the deadline passed`, {
      cause: error,
    });
  }
  return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, message, { cause: error });
}
