import { describe, expect, it } from 'vitest';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { Deadline } from './deadline.js';
import { withDeadline } from './race.js';

/** A deadline whose timer fires while the wall clock still says time is left (early timer, clock step). */
class EarlyTimerDeadline extends Deadline {
  override remainingMs(): number {
    return 0;
  }
}

const never = new Promise<never>(() => undefined);

describe('withDeadline', () => {
  it('answers OPERATION_TIMEOUT when its timer fires, even before the wall clock reaches the deadline', async () => {
    const deadline = new EarlyTimerDeadline(60_000);
    expect(deadline.expired()).toBe(false);
    const error = await withDeadline(never, deadline).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrowserMeshError);
    expect((error as BrowserMeshError).code).toBe(ErrorCodes.OPERATION_TIMEOUT);
  });

  it('passes the value and the error of a promise that settles first', async () => {
    await expect(withDeadline(Promise.resolve(7), new Deadline(60_000))).resolves.toBe(7);
    await expect(withDeadline(Promise.reject(new Error('boom')), new Deadline(60_000))).rejects.toThrow(
      'boom',
    );
  });

  it('answers OPERATION_CANCELLED when the caller aborts, before or during the wait', async () => {
    const before = new AbortController();
    before.abort();
    const during = new AbortController();
    const pending = withDeadline(never, new Deadline(60_000), during.signal);
    during.abort();
    for (const result of [withDeadline(never, new Deadline(60_000), before.signal), pending]) {
      const error = (await result.catch((e: unknown) => e)) as BrowserMeshError;
      expect(error.code).toBe(ErrorCodes.OPERATION_CANCELLED);
    }
  });
});
