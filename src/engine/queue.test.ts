import { describe, expect, it } from 'vitest';
import { ErrorCodes, BrowserMeshError } from '../errors.js';
import { Deadline } from './deadline.js';
import { SerialQueue } from './queue.js';

function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const long = (): Deadline => new Deadline(60_000);

describe('SerialQueue', () => {
  it('runs tasks one at a time in acceptance order', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const gate = deferred();
    const a = queue.enqueue(
      async () => {
        log.push('a:start');
        await gate.promise;
        log.push('a:end');
        return 'a';
      },
      { deadline: long() },
    );
    const b = queue.enqueue(
      async () => {
        log.push('b');
        return 'b';
      },
      { deadline: long() },
    );
    await Promise.resolve();
    expect(log).toEqual(['a:start']);
    gate.resolve();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(log).toEqual(['a:start', 'a:end', 'b']);
  });

  it('a failing task does not block the next', async () => {
    const queue = new SerialQueue();
    const failing = queue.enqueue(
      async () => {
        throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'boom');
      },
      { deadline: long() },
    );
    const next = queue.enqueue(async () => 'ok', { deadline: long() });
    await expect(failing).rejects.toMatchObject({ code: ErrorCodes.BROWSER_ERROR });
    await expect(next).resolves.toBe('ok');
  });

  it('a task cancelled while queued never runs', async () => {
    const queue = new SerialQueue();
    const gate = deferred();
    let ran = false;
    const first = queue.enqueue(() => gate.promise, { deadline: long() });
    const controller = new AbortController();
    const second = queue.enqueue(
      async () => {
        ran = true;
      },
      { deadline: long(), signal: controller.signal },
    );
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: ErrorCodes.OPERATION_CANCELLED });
    gate.resolve();
    await first;
    await queue.drain();
    expect(ran).toBe(false);
    expect(queue.size).toBe(0);
  });

  it('queue wait consumes the deadline: a task whose deadline passes while queued times out and never runs', async () => {
    const queue = new SerialQueue();
    const gate = deferred();
    let ran = false;
    const first = queue.enqueue(() => gate.promise, { deadline: long() });
    const second = queue.enqueue(
      async () => {
        ran = true;
      },
      { deadline: new Deadline(30) },
    );
    await expect(second).rejects.toMatchObject({ code: ErrorCodes.OPERATION_TIMEOUT });
    gate.resolve();
    await first;
    await queue.drain();
    expect(ran).toBe(false);
  });

  it('a running task that times out keeps its slot until it really ends', async () => {
    const queue = new SerialQueue();
    const gate = deferred();
    const log: string[] = [];
    let seenSignal: AbortSignal | undefined;
    const slow = queue.enqueue(
      async ({ signal }) => {
        seenSignal = signal;
        await gate.promise;
        log.push('slow:end');
      },
      { deadline: new Deadline(30) },
    );
    const next = queue.enqueue(
      async () => {
        log.push('next');
      },
      { deadline: long() },
    );
    await expect(slow).rejects.toMatchObject({ code: ErrorCodes.OPERATION_TIMEOUT });
    expect(seenSignal?.aborted).toBe(true);
    expect(log).toEqual([]);
    gate.resolve();
    await next;
    expect(log).toEqual(['slow:end', 'next']);
  });

  it('removes its abort listener once settled', async () => {
    const queue = new SerialQueue();
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    }) as typeof signal.removeEventListener;
    await queue.enqueue(async () => 1, { deadline: long(), signal });
    expect(listeners).toBe(0);
  });

  it('refuse() rejects new tasks while accepted ones still run; failAll() fails queued ones', async () => {
    const queue = new SerialQueue();
    const gate = deferred();
    const running = queue.enqueue(() => gate.promise.then(() => 'done'), { deadline: long() });
    const queued = queue.enqueue(async () => 'never', { deadline: long() });
    const error = (): BrowserMeshError => new BrowserMeshError(ErrorCodes.SESSION_CLOSED, 'closed');
    queue.failAll(error);
    await expect(queue.enqueue(async () => 1, { deadline: long() })).rejects.toMatchObject({
      code: ErrorCodes.SESSION_CLOSED,
    });
    await expect(queued).rejects.toMatchObject({ code: ErrorCodes.SESSION_CLOSED });
    await expect(running).rejects.toMatchObject({ code: ErrorCodes.SESSION_CLOSED });
    gate.resolve();
    await queue.drain();
    expect(queue.size).toBe(0);
  });

  it('refuses an already-aborted signal and an already-expired deadline without queueing', async () => {
    const queue = new SerialQueue();
    const controller = new AbortController();
    controller.abort();
    await expect(
      queue.enqueue(async () => 1, { deadline: long(), signal: controller.signal }),
    ).rejects.toMatchObject({
      code: ErrorCodes.OPERATION_CANCELLED,
    });
    await expect(queue.enqueue(async () => 1, { deadline: new Deadline(0) })).rejects.toMatchObject({
      code: ErrorCodes.OPERATION_TIMEOUT,
    });
    expect(queue.size).toBe(0);
  });
});

describe('Deadline', () => {
  it('counts from acceptance and never gives a step a fresh budget', () => {
    const deadline = new Deadline(1000, 5000);
    expect(deadline.remainingMs(5400)).toBe(600);
    expect(deadline.remainingMs(7000)).toBe(0);
    expect(deadline.expired(6000)).toBe(true);
    expect(deadline.expired(5999)).toBe(false);
  });

  it('stepTimeoutMs is at least 1 so Playwright never sees 0 (= no timeout)', () => {
    const deadline = new Deadline(0);
    expect(deadline.stepTimeoutMs()).toBe(1);
    expect(() => deadline.check()).toThrow(BrowserMeshError);
  });
  it('an aborted task that never ends gives up its slot after the release grace', async () => {
    const queue = new SerialQueue({ releaseGraceMs: 50 });
    const never = new Promise<void>(() => undefined);
    const wedged = queue.enqueue(() => never, { deadline: new Deadline(20) });
    const next = queue.enqueue(async () => 'next', { deadline: long() });
    await expect(wedged).rejects.toMatchObject({ code: ErrorCodes.OPERATION_TIMEOUT });
    await expect(next).resolves.toBe('next');
  });

  it('refuses tasks beyond maxLength with LIMIT_EXCEEDED and accepts again once one settles', async () => {
    const queue = new SerialQueue({ maxLength: 2 });
    const gate = deferred();
    const first = queue.enqueue(() => gate.promise, { deadline: long() });
    const second = queue.enqueue(async () => 'second', { deadline: long() });
    await expect(queue.enqueue(async () => 'third', { deadline: long() })).rejects.toMatchObject({
      code: ErrorCodes.LIMIT_EXCEEDED,
      details: { limit: 2, field: 'maxQueuedOps' },
    });
    gate.resolve();
    await first;
    await expect(second).resolves.toBe('second');
    await expect(queue.enqueue(async () => 'later', { deadline: long() })).resolves.toBe('later');
  });

  it('failAll() after a wedged task: drain() still finishes within the release grace', async () => {
    const queue = new SerialQueue({ releaseGraceMs: 50 });
    const started = deferred();
    const wedged = queue.enqueue(
      () => {
        started.resolve();
        return new Promise<void>(() => undefined);
      },
      { deadline: long() },
    );
    const queued = queue.enqueue(async () => 'never runs', { deadline: long() });
    await started.promise;
    queue.failAll(() => new BrowserMeshError(ErrorCodes.SESSION_CLOSED, 'closed'));
    await expect(wedged).rejects.toMatchObject({ code: ErrorCodes.SESSION_CLOSED });
    await expect(queued).rejects.toMatchObject({ code: ErrorCodes.SESSION_CLOSED });
    await queue.drain();
  });

  it("lets a task's steps listen on its signal many at once without a leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const queue = new SerialQueue();
      // As playwright-core does for each CDP call in flight: a listener added, removed when it ends.
      await queue.enqueue(
        async ({ signal }) => {
          const listeners = Array.from({ length: 40 }, () => (): void => undefined);
          for (const listener of listeners) signal.addEventListener('abort', listener, { once: true });
          for (const listener of listeners) signal.removeEventListener('abort', listener);
        },
        { deadline: long() },
      );
      // Node emits the warning on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
