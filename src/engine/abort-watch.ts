import { interruptPage } from './interrupt.js';
import type { ManagedPage } from './page.js';

/** How long an aborted operation may go on by itself before its page's script is terminated. */
export const STUCK_AFTER_ABORT_MS = 1_000;

/**
 * Makes an abort real for the browser work of one running operation. A caller's cancellation stops
 * the page's loading at once (a navigation in flight ends, so the operation ends with it); any abort
 * (cancellation, deadline, session close) that the operation has not answered within
 * STUCK_AFTER_ABORT_MS also terminates the page's running JavaScript, which is what keeps an
 * evaluation, a title read or a wait from ending on a page stuck in a loop.
 * Returns the function that stops watching (call it when the operation ends).
 */
export function watchAbort(
  signal: AbortSignal,
  pages: () => readonly ManagedPage[],
  callerSignal: AbortSignal | undefined,
): () => void {
  let stuckTimer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = (): void => {
    if (callerSignal?.aborted) for (const page of pages()) void interruptPage(page, false);
    stuckTimer = setTimeout(() => {
      for (const page of pages()) void interruptPage(page, true);
    }, STUCK_AFTER_ABORT_MS);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    signal.removeEventListener('abort', onAbort);
    clearTimeout(stuckTimer);
  };
}
