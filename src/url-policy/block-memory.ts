import type { BlockReason } from './policy.js';
import { normalizeHost } from './policy.js';

/** A refused connection, as the session remembers it (host and port only, never a path or query). */
export interface BlockedConnection {
  host: string;
  port: number;
  reason: BlockReason;
  timeMs: number;
}

const MAX_REMEMBERED = 64;
const REMEMBER_MS = 60_000;

/** A listener told the target of every top-level document request refused from now on. */
export type DocumentRefusalListener = (targetId: string) => void;

/**
 * The recent refusals of one enforcement point (a guard proxy or a request interceptor), so a failed
 * request or navigation can be reported as the policy's doing instead of a bare network error.
 */
export class BlockMemory {
  private readonly blocked: BlockedConnection[] = [];
  /** Targets (a top-level frame's id is its target's) whose document request was refused, and when. */
  private readonly documents = new Map<string, number>();
  private readonly documentListeners = new Set<DocumentRefusalListener>();

  remember(host: string, port: number, reason: BlockReason): void {
    this.blocked.push({ host: normalizeHost(host), port, reason, timeMs: Date.now() });
    if (this.blocked.length > MAX_REMEMBERED) this.blocked.shift();
  }

  /** The most recent refusal for host:port within the last minute. */
  blockedReason(host: string, port: number): BlockReason | undefined {
    const name = normalizeHost(host);
    const now = Date.now();
    for (let i = this.blocked.length - 1; i >= 0; i--) {
      const entry = this.blocked[i];
      if (!entry || now - entry.timeMs > REMEMBER_MS) break;
      if (entry.host === name && entry.port === port) return entry.reason;
    }
    return undefined;
  }

  /**
   * A refused document request of the frame `frameId` (known only where requests are intercepted in
   * the browser): a popup refused on its first request is found by it before it is even adopted.
   */
  rememberDocument(frameId: string): void {
    this.documents.delete(frameId);
    this.documents.set(frameId, Date.now());
    if (this.documents.size > MAX_REMEMBERED) this.documents.delete(this.documents.keys().next().value ?? '');
    for (const listener of this.documentListeners) listener(frameId);
  }

  /** Whether a document request of target `targetId` was refused within the last minute. */
  documentRefused(targetId: string): boolean {
    const at = this.documents.get(targetId);
    return at !== undefined && Date.now() - at <= REMEMBER_MS;
  }

  /** Calls `listener` for every document refusal from now on; returns the unsubscribe function. */
  onDocumentRefused(listener: DocumentRefusalListener): () => void {
    this.documentListeners.add(listener);
    return () => void this.documentListeners.delete(listener);
  }

  /** The latest refusal at or after `sinceMs`. */
  blockedSince(sinceMs: number): BlockReason | undefined {
    const last = this.blocked.at(-1);
    return last && last.timeMs >= sinceMs ? last.reason : undefined;
  }
}
