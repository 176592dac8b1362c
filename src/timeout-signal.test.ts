import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { signalWithTimeout } from './timeout-signal.js';

// A garbage collection in the middle of the wait: what made AbortSignal.any + AbortSignal.timeout
// never abort on Node 20.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const aborted = (signal: AbortSignal): Promise<unknown> =>
  new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));

describe('signalWithTimeout', () => {
  it('aborts at its timeout even after a garbage collection, with a TimeoutError', async () => {
    const never = new AbortController();
    const { signal } = signalWithTimeout(never.signal, 50);
    const reason = aborted(signal);
    gc();
    await expect(reason).resolves.toMatchObject({ name: 'TimeoutError' });
  });

  it('aborts with the caller’s signal and its reason, first', async () => {
    const caller = new AbortController();
    const { signal } = signalWithTimeout(caller.signal, 60_000);
    caller.abort(new Error('cancelled by the caller'));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ message: 'cancelled by the caller' });
    const already = signalWithTimeout(caller.signal, 60_000);
    expect(already.signal.aborted).toBe(true);
  });

  it('after dispose, neither the timer nor the caller aborts it', () => {
    vi.useFakeTimers();
    try {
      const caller = new AbortController();
      const wait = signalWithTimeout(caller.signal, 20);
      wait.dispose();
      caller.abort();
      vi.advanceTimersByTime(1_000);
      expect(wait.signal.aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
