import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { timeoutError, type Deadline } from './deadline.js';

/** Races a promise against the deadline and the caller's signal (the promise itself keeps running). */
export function withDeadline<T>(promise: Promise<T>, deadline: Deadline, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void =>
      finish(() =>
        reject(new BrowserMeshError(ErrorCodes.OPERATION_CANCELLED, 'Operation was cancelled by the caller')),
      );
    // The timer is the deadline: it may fire a hair before the wall clock (Date.now) says so, or the
    // clock may step back, and a check that passed then would leave this promise pending forever.
    const timer = setTimeout(() => finish(() => reject(timeoutError(deadline))), deadline.remainingMs());
    let done = false;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      try {
        settle();
      } catch (error) {
        reject(error);
      }
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
