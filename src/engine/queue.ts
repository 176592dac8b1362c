import type { BrowserMeshError } from '../errors.js';
import { cancelledError, timeoutError, type Deadline } from './deadline.js';

export interface QueueTaskContext {
  /** Aborts when the deadline passes or the caller cancels; pass it to every browser step. */
  signal: AbortSignal;
  deadline: Deadline;
}

export interface EnqueueOptions {
  deadline: Deadline;
  signal?: AbortSignal | undefined;
}

interface Entry {
  started: boolean;
  settled: boolean;
  fail(error: BrowserMeshError): void;
}

/**
 * A serial queue: tasks run one at a time in acceptance order. What must stay true:
 * - a task cancelled or timed out while still queued never runs (it never touches the browser);
 * - a running task keeps the slot until its promise really settles, even when its caller has
 *   already been answered with a timeout or cancellation, so the next task cannot overtake it;
 * - a failing task never blocks the ones behind it;
 * - timers and abort listeners are removed as soon as an entry settles.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();
  private readonly entries = new Set<Entry>();
  private refusal: (() => BrowserMeshError) | undefined;

  /** Number of accepted tasks that have not settled yet (running one included). */
  get size(): number {
    return this.entries.size;
  }

  enqueue<T>(task: (ctx: QueueTaskContext) => Promise<T>, options: EnqueueOptions): Promise<T> {
    if (this.refusal) return Promise.reject(this.refusal());
    const { deadline, signal } = options;
    if (signal?.aborted) return Promise.reject(cancelledError());
    if (deadline.expired()) return Promise.reject(timeoutError(deadline));

    return new Promise<T>((resolve, reject) => {
      const controller = new AbortController();
      const entry: Entry = { started: false, settled: false, fail: (error) => settle(error) };
      const onAbort = (): void => settle(cancelledError());
      const timer = setTimeout(() => settle(timeoutError(deadline)), deadline.remainingMs());

      const settle = (error: unknown, value?: T): void => {
        if (entry.settled) return;
        entry.settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.entries.delete(entry);
        if (error !== undefined) {
          if (!controller.signal.aborted) controller.abort(error);
          reject(error);
        } else {
          resolve(value as T);
        }
      };

      signal?.addEventListener('abort', onAbort, { once: true });
      this.entries.add(entry);

      const previous = this.tail;
      this.tail = (async () => {
        await previous;
        if (entry.settled) return; // cancelled, timed out or failed while queued: skip without running
        entry.started = true;
        try {
          const value = await task({ signal: controller.signal, deadline });
          settle(undefined, value);
        } catch (error) {
          settle(error ?? new Error('task failed'));
        }
      })();
    });
  }

  /** Refuses every later enqueue with the given error; accepted tasks still run. */
  refuse(makeError: () => BrowserMeshError): void {
    this.refusal ??= makeError;
  }

  /** Refuses new tasks and fails every accepted one that has not started (running ones are aborted). */
  failAll(makeError: () => BrowserMeshError): void {
    this.refuse(makeError);
    for (const entry of [...this.entries]) entry.fail(makeError());
  }

  /** Resolves once every accepted task has really finished (queued ones run or are skipped). */
  async drain(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.tail;
      await current;
    } while (current !== this.tail);
  }
}
