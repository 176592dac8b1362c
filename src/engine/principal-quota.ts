import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { SessionState } from './session.js';

/**
 * Which principal (HTTP client identity) holds which session, so one principal cannot take every
 * session slot of a shared server and counts can be shown per principal. Sessions being created
 * count too, so parallel creates cannot overshoot the quota.
 */
export class PrincipalQuota {
  private readonly bySession = new Map<string, string>();
  private readonly creating = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly stateOf: (sessionId: string) => SessionState | undefined,
  ) {}

  /** Reserves a slot for a session being created; LIMIT_EXCEEDED when the principal is at its quota. */
  reserve(principal: string): void {
    let live = this.creating.get(principal) ?? 0;
    for (const [id, owner] of this.bySession) {
      const state = this.stateOf(id);
      if (owner === principal && (state === 'ready' || state === 'closing')) live++;
    }
    if (live >= this.limit) {
      throw new BrowserMeshError(
        ErrorCodes.LIMIT_EXCEEDED,
        `This client may hold at most ${this.limit} live sessions`,
        {
          details: { limit: this.limit, field: 'maxSessionsPerPrincipal' },
          recoveryHint: 'Close a session you no longer need with browser_session_close.',
        },
      );
    }
    this.creating.set(principal, (this.creating.get(principal) ?? 0) + 1);
  }

  /** Ends a reservation: the session now exists (`sessionId`) or its creation failed (undefined). */
  settle(principal: string, sessionId: string | undefined): void {
    this.creating.set(principal, Math.max(0, (this.creating.get(principal) ?? 1) - 1));
    if (sessionId !== undefined) this.bySession.set(sessionId, principal);
  }

  principalOf(sessionId: string): string | undefined {
    return this.bySession.get(sessionId);
  }

  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}
