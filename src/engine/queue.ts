import { setMaxListeners } from 'node:events';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
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

export interface SerialQueueOptions {
  /** Accepted tasks that have not settled (running one included) before LIMIT_EXCEEDED. */
  maxLength?: number;
  /**
   * How long an aborted running task may keep the slot before the queue moves on without it. The
   * runtime interrupts the page meanwhile; this only bounds a task the browser can no longer end.
   */
  releaseGraceMs?: number;
}

interface Entry {
  started: boolean;
  settled: boolean;
  fail(error: BrowserMeshError): void;
}

const DEFAULT_MAX_LENGTH = 64;
const DEFAULT_RELEASE_GRACE_MS = 5_000;

/**
 * A serial queue: tasks run one at a time in acceptance order. What must stay true:
 * - a task cancelled or timed out while still queued never runs (it never touches the browser);
 * - a running task keeps the slot until its promise really settles, even when its caller has
 *   already been answered with a timeout or cancellation, so the next task cannot overtake it —
 *   but only for `releaseGraceMs` after that answer: a task wedged for good must not hold the
 *   session (and its close) for ever;
 * - a failing task never blocks the ones behind it;
 * - at most `maxLength` tasks are accepted at once; more are refused with LIMIT_EXCEEDED;
 * - timers and abort listeners are removed as soon as an entry settles.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();
  private readonly entries = new Set<Entry>();
  private refusal: (() => BrowserMeshError) | undefined;
  private readonly maxLength: number;
  private readonly releaseGraceMs: number;

  constructor(options: SerialQueueOptions = {}) {
    this.maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
    this.releaseGraceMs = options.releaseGraceMs ?? DEFAULT_RELEASE_GRACE_MS;
  }

  /** Number of accepted tasks that have not settled yet (running one included). */
  get size(): number {
    return this.entries.size;
  }

  enqueue<T>(task: (ctx: QueueTaskContext) => Promise<T>, options: EnqueueOptions): Promise<T> {
    if (this.refusal) return Promise.reject(this.refusal());
    const { deadline, signal } = options;
    if (signal?.aborted) return Promise.reject(cancelledError());
    if (deadline.expired()) return Promise.reject(timeoutError(deadline));
    if (this.entries.size >= this.maxLength) return Promise.reject(queueFullError(this.maxLength));

    return new Promise<T>((resolve, reject) => {
      const controller = new AbortController();
      // Every browser step of the task listens on this signal while it is in flight (playwright-core
      // adds a listener per CDP call and removes it when the call ends), and a capture sends a step
      // per frame at once: more than Node's default of 10 is fan-out, not a leak.
      setMaxListeners(0, controller.signal);
      const entry: Entry = { started: false, settled: false, fail: (error) => settle(error) };
      const onAbort = (): void => settle(cancelledError());
      const timer = setTimeout(() => settle(timeoutError(deadline)), deadline.remainingMs());
      let releaseSlot: (() => void) | undefined;
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const released = new Promise<void>((resolveRelease) => (releaseSlot = resolveRelease));

      const settle = (error: unknown, value?: T): void => {
        if (entry.settled) return;
        entry.settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.entries.delete(entry);
        if (error !== undefined) {
          if (!controller.signal.aborted) controller.abort(error);
          // Answered while still running: the slot is given up after the grace at the latest.
          if (entry.started) graceTimer = setTimeout(() => releaseSlot?.(), this.releaseGraceMs);
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
        const running = task({ signal: controller.signal, deadline }).then(
          (value) => settle(undefined, value),
          (error: unknown) => settle(error ?? new Error('task failed')),
        );
        await Promise.race([running, released]);
        clearTimeout(graceTimer);
      })();
    });
  }

  /** Refuses every later enqueue with the given error; accepted tasks still run. */
  refuse(makeError: () => BrowserMeshError): void {
    this.refusal ??= makeError;
  }

  /** Refuses new tasks and fails every accepted one: queued ones never run, the running one is aborted. */
  failAll(makeError: () => BrowserMeshError): void {
    this.refuse(makeError);
    for (const entry of [...this.entries]) entry.fail(makeError());
  }

  /**
   * Resolves once every accepted task has finished or given up its slot (queued ones run or are
   * skipped). Bounded when every task is: after failAll() it takes at most `releaseGraceMs`.
   */
  async drain(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.tail;
      await current;
    } while (current !== this.tail);
  }
}

function queueFullError(maxLength: number): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.LIMIT_EXCEEDED,
    `A session may have at most ${maxLength} operations queued or running`,
    {
      details: { limit: maxLength, field: 'maxQueuedOps' },
      recoveryHint: 'Wait for earlier operations on this session to finish before sending more.',
    },
  );
}
