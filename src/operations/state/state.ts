import type { OperationContext } from '../../engine/runtime.js';
import { withDeadline } from '../../engine/runtime.js';
import type { SaveResult, StateStore } from '../../persistence/store.js';

/**
 * Captures the session's storage state (cookies and localStorage; never permissions, context settings
 * or IndexedDB) and hands it to the store. Runs on the session queue, so it saves what the operations
 * accepted before it left behind.
 */
export async function saveState(
  ctx: OperationContext,
  store: StateStore,
  stateId: string,
): Promise<SaveResult> {
  const state = await withDeadline(ctx.session.browserContext.storageState(), ctx.deadline, ctx.signal);
  return store.save(stateId, state);
}
