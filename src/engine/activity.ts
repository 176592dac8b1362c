import { EventEmitter } from 'node:events';

/**
 * One finished tool call as a watcher may see it: which tool, on which session and page, how long it
 * took and how it ended. Deliberately no arguments and no result: typed values, passwords, cookies
 * and page content never enter this record, so no view built on it can leak them.
 */
export interface OperationRecord {
  operationId: string;
  tool: string;
  sessionId: string | null;
  pageId: string | null;
  startedAt: string;
  durationMs: number;
  /** null when the call succeeded, else the stable error code. */
  errorCode: string | null;
}

export interface ActivityEvents {
  /** Something a watcher shows changed (an operation ended, a session opened or closed). */
  change: [];
  operation: [OperationRecord];
}

const DEFAULT_PER_SESSION = 50;
const MAX_SESSIONS_KEPT = 500;

/**
 * The runtime's recent activity, per session and bounded: what a live dashboard reads. It keeps
 * `perSession` records for each session and forgets the oldest sessions past a fixed count, so a
 * long-running server never grows it without bound.
 */
export class ActivityLog extends EventEmitter<ActivityEvents> {
  private readonly bySession = new Map<string, OperationRecord[]>();

  constructor(private readonly perSession = DEFAULT_PER_SESSION) {
    super();
    // Any number of dashboards may listen; this is not a leak.
    this.setMaxListeners(0);
  }

  record(op: OperationRecord): void {
    const key = op.sessionId ?? '';
    let list = this.bySession.get(key);
    if (!list) {
      list = [];
      this.bySession.set(key, list);
      if (this.bySession.size > MAX_SESSIONS_KEPT) {
        const oldest = this.bySession.keys().next().value;
        if (oldest !== undefined) this.bySession.delete(oldest);
      }
    }
    list.push(op);
    if (list.length > this.perSession) list.splice(0, list.length - this.perSession);
    this.emit('operation', op);
    this.emit('change');
  }

  /** The session's recent operations, newest last. */
  recent(sessionId: string): OperationRecord[] {
    return [...(this.bySession.get(sessionId) ?? [])];
  }

  /** Tells watchers that the set of sessions or pages changed. */
  touch(): void {
    this.emit('change');
  }
}
