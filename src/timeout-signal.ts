/**
 * `signal` or `ms` from now, whichever comes first, as one signal; `dispose` stops the timer and the
 * listening once the wait is over.
 *
 * Not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: on Node 20 the composite holds the
 * timeout signal only weakly and that signal's timer holds it weakly too, so after a garbage
 * collection nothing holds it and the composite never aborts (a script waiting for a sandbox worker
 * past its deadline waited on; Node 22 fixed it). Here the timer's callback holds the controller.
 */
export function signalWithTimeout(
  signal: AbortSignal,
  ms: number,
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal.reason);
  const timer = setTimeout(
    () => controller.abort(new DOMException('The wait timed out', 'TimeoutError')),
    Math.min(Math.max(0, ms), 2 ** 31 - 1),
  );
  // Like AbortSignal.timeout: the wait alone never keeps the process alive.
  timer.unref();
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}
