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

/**
 * The recent refusals of one enforcement point (a guard proxy or a request interceptor), so a failed
 * request or navigation can be reported as the policy's doing instead of a bare network error.
 */
export class BlockMemory {
  private readonly blocked: BlockedConnection[] = [];

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

  /** The latest refusal at or after `sinceMs`. */
  blockedSince(sinceMs: number): BlockReason | undefined {
    const last = this.blocked.at(-1);
    return last && last.timeMs >= sinceMs ? last.reason : undefined;
  }
}
