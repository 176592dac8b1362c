import { randomBytes, timingSafeEqual } from 'node:crypto';
import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../errors.js';
import type { BrowserMesh } from './runtime.js';

/** How a request for a person ended: handed back, its deadline passed, or withdrawn. */
export type HandoffOutcome = 'returned' | 'timeout' | 'cancelled';

/** A session waiting for a person (browser_request_human), as the dashboard and the tool see it. */
export interface Handoff {
  sessionId: string;
  pageId: string;
  /** The agent's words for the person (shown on the dashboard; never a secret of the page). */
  reason: string;
  /** Epoch ms of the request. */
  since: number;
  /** The take-over link's capability: this session's take-over only, while the request waits. */
  token: string;
  /** Resolves once the session's queue reached the request (everything before it finished). */
  holding: Promise<void>;
  /** Resolves with how the request ended. */
  done: Promise<HandoffOutcome>;
}

interface Pending extends Handoff {
  settle(outcome: HandoffOutcome): void;
}

export interface HandoffOptions {
  timeoutMs: number;
  owner?: string | undefined;
  principal?: string | undefined;
  operationId?: string | undefined;
  /**
   * The caller's own running operation already holds the session's queue (a code-mode script's
   * `human.request`): the request waits inside it instead of queueing behind it (which would never
   * start), ends as `timeout` after `timeoutMs`, and as `cancelled` when this signal aborts.
   */
  heldBy?: AbortSignal | undefined;
}

/**
 * Requests for a person, per runtime. A request is an operation on the session's own serial queue
 * (as a dashboard take-over is): it starts once the running operation finishes, and everything the
 * agent sends meanwhile waits behind it until the person hands back, the request's deadline passes,
 * or it is withdrawn. One request per session at a time. Nothing the person types is kept here.
 */
export class Handoffs {
  private readonly pending = new Map<string, Pending>();
  /** How the last request of a session ended, for an agent that waits with a second call. */
  private readonly ended = new Map<string, { outcome: HandoffOutcome; since: number; endedAt: number }>();

  constructor(private readonly mesh: BrowserMesh) {}

  get(sessionId: string): Handoff | undefined {
    return this.pending.get(sessionId);
  }

  /** The request a take-over link's token opens; undefined for any other string. */
  byToken(token: string | undefined): Handoff | undefined {
    if (!token) return undefined;
    const given = Buffer.from(token);
    for (const handoff of this.pending.values()) {
      const known = Buffer.from(handoff.token);
      if (known.length === given.length && timingSafeEqual(known, given)) return handoff;
    }
    return undefined;
  }

  lastOutcome(sessionId: string): { outcome: HandoffOutcome; waitedMs: number } | undefined {
    const ended = this.ended.get(sessionId);
    return ended && { outcome: ended.outcome, waitedMs: ended.endedAt - ended.since };
  }

  /** Asks for a person on the session's page; HUMAN_REQUEST_PENDING while one already waits. */
  open(sessionId: string, pageId: string, reason: string, options: HandoffOptions): Handoff {
    const session = this.mesh.getSession(sessionId, { owner: options.owner });
    session.getPage(pageId);
    if (this.pending.has(sessionId)) {
      throw new BrowserMeshError(ErrorCodes.HUMAN_REQUEST_PENDING, 'The session already waits for a person', {
        details: { field: 'sessionId' },
        recoveryHint:
          'Wait for that request (browser_request_human with wait: true), or withdraw it (cancel: true).',
      });
    }
    let settle!: (outcome: HandoffOutcome) => void;
    let reached!: () => void;
    const done = new Promise<HandoffOutcome>((resolve) => (settle = resolve));
    const holding = new Promise<void>((resolve) => (reached = resolve));
    const pending: Pending = {
      sessionId,
      pageId,
      reason,
      since: Date.now(),
      token: randomBytes(24).toString('base64url'),
      holding,
      done,
      settle,
    };
    this.pending.set(sessionId, pending);
    this.ended.delete(sessionId);
    if (options.heldBy) holdInside(options.heldBy, options.timeoutMs, reached, pending);
    else this.holdQueue(pending, options, reached);
    void done.then((outcome) => {
      if (this.pending.get(sessionId) === pending) this.pending.delete(sessionId);
      this.ended.set(sessionId, { outcome, since: pending.since, endedAt: Date.now() });
      this.mesh.activity.touch();
    });
    this.mesh.activity.touch();
    return pending;
  }

  /** Queues the request on the session: it holds the queue from the moment it reaches it. */
  private holdQueue(pending: Pending, options: HandoffOptions, reached: () => void): void {
    const run = this.mesh.run(
      pending.sessionId,
      'human_handoff',
      async ({ signal }) => {
        reached();
        await new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => resolve(), { once: true });
          void pending.done.then(() => resolve());
        });
      },
      {
        timeoutMs: options.timeoutMs,
        owner: options.owner,
        principal: options.principal,
        operationId: options.operationId,
        tool: 'browser_request_human',
      },
    );
    run.then(
      () => pending.settle('cancelled'),
      (error: unknown) =>
        pending.settle(
          isBrowserMeshError(error) && error.code === ErrorCodes.OPERATION_TIMEOUT ? 'timeout' : 'cancelled',
        ),
    );
  }

  /** The person handed back (the dashboard's "Hand back"); false when nothing waits. */
  handBack(sessionId: string): boolean {
    return this.end(sessionId, 'returned');
  }

  /** Withdraws a waiting request; false when nothing waits. */
  cancel(sessionId: string): boolean {
    return this.end(sessionId, 'cancelled');
  }

  private end(sessionId: string, outcome: HandoffOutcome): boolean {
    const pending = this.pending.get(sessionId);
    if (!pending) return false;
    this.pending.delete(sessionId);
    pending.settle(outcome);
    return true;
  }
}

/** A request inside the caller's operation: held at once, until its timer or the caller's signal. */
function holdInside(signal: AbortSignal, timeoutMs: number, reached: () => void, pending: Pending): void {
  reached();
  const timer = setTimeout(() => pending.settle('timeout'), timeoutMs);
  const onAbort = (): void => pending.settle('cancelled');
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  void pending.done.then(() => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  });
}

const registry = new WeakMap<BrowserMesh, Handoffs>();

/** The runtime's requests for a person (one registry per runtime, shared by the tool and the dashboard). */
export function handoffsOf(mesh: BrowserMesh): Handoffs {
  let handoffs = registry.get(mesh);
  if (!handoffs) {
    handoffs = new Handoffs(mesh);
    registry.set(mesh, handoffs);
  }
  return handoffs;
}
