import { BrowserMeshError, ErrorCodes } from '../errors.js';

/**
 * One absolute deadline per operation, fixed when the runtime accepts it. Queue wait and every
 * browser step draw from the same budget: no step ever gets a fresh full timeout.
 */
export class Deadline {
  readonly acceptedAt: number;
  readonly expiresAt: number;

  constructor(timeoutMs: number, now: number = Date.now()) {
    this.acceptedAt = now;
    this.expiresAt = now + timeoutMs;
  }

  get timeoutMs(): number {
    return this.expiresAt - this.acceptedAt;
  }

  /** Milliseconds left, never negative. */
  remainingMs(now: number = Date.now()): number {
    return Math.max(0, this.expiresAt - now);
  }

  expired(now: number = Date.now()): boolean {
    return now >= this.expiresAt;
  }

  /** Throws OPERATION_TIMEOUT once the deadline has passed. */
  check(): void {
    if (this.expired()) throw timeoutError(this);
  }

  /**
   * A timeout for one Playwright step: what is left, at least 1 ms (Playwright treats 0 as "no
   * timeout", which must never happen here).
   */
  stepTimeoutMs(): number {
    return Math.max(1, this.remainingMs());
  }
}

export function timeoutError(deadline: Deadline): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.OPERATION_TIMEOUT,
    `Operation did not finish within its ${deadline.timeoutMs} ms deadline (queue wait included)`,
    {
      details: { timeoutMs: deadline.timeoutMs },
      recoveryHint: 'Retry with a larger timeoutMs if the page is slow.',
    },
  );
}

export function cancelledError(): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.OPERATION_CANCELLED, 'Operation was cancelled by the caller');
}
