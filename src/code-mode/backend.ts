import type { FacadeCall } from './facade-parse.js';

/**
 * What a code-mode script drives. The sandbox hands over only validated calls, one at a time, in
 * the order the script made them (see `runScript`).
 *
 * Contract:
 * - Resolve with a JSON-serializable value (see `FacadeResults` for the shape each op should have).
 * - Reject with a `BrowserMeshError`: its `code`, `message` and `recoveryHint` reach the script as
 *   a catchable error. Any other thrown value reaches the script as INTERNAL_ERROR with a generic
 *   message, because its text could carry page content or secrets.
 * - Honour `signal`: it aborts when the script is cancelled, hits its deadline or finishes while the
 *   call is still running. The sandbox stops waiting at that moment either way.
 */
export interface CodeModeBackend {
  invoke(call: FacadeCall, signal: AbortSignal): Promise<unknown>;
}
