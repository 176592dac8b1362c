import { BrowserMeshError, ErrorCodes } from '../errors.js';

/**
 * Open event streams (state and frames) per principal. Each stream holds a connection, timers and,
 * for frames, a screencast: without a cap one token could open them until the server gave out.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly maxPerPrincipal: number) {}

  /** Takes a slot or throws LIMIT_EXCEEDED; the returned function gives it back (once). */
  take(principal: string): () => void {
    const held = this.open.get(principal) ?? 0;
    if (held >= this.maxPerPrincipal) {
      throw new BrowserMeshError(ErrorCodes.LIMIT_EXCEEDED, 'Too many open dashboard streams', {
        details: { field: 'dashboardMaxStreams', limit: this.maxPerPrincipal },
        recoveryHint: 'Close dashboard tabs you no longer watch, or raise BROWSERMESH_DASHBOARD_MAX_STREAMS.',
      });
    }
    this.open.set(principal, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.open.get(principal) ?? 1) - 1;
      if (left > 0) this.open.set(principal, left);
      else this.open.delete(principal);
    };
  }
}
