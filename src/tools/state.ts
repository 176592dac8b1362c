import { z } from 'zod';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { saveState } from '../operations/state/state.js';
import type { StorageState } from '../persistence/format.js';
import { STATE_ID_PATTERN } from '../persistence/state-id.js';
import type { StateStore } from '../persistence/store.js';
import { defineTool, DESTRUCTIVE, READ_ONLY } from './define.js';
import { sessionAddress } from './schemas.js';
import type { Services } from './services.js';

export const StateId = z
  .string()
  .regex(STATE_ID_PATTERN, 'letters, digits, _ or -, starting with a letter or digit (max 64)')
  .describe('Letters, digits, _ or - (max 64).')
  .meta({ id: 'StateId' });

const SavedState = z.object({ stateId: z.string(), bytes: z.number().int(), savedAt: z.string() });

/** The configured store; a runtime built without one behaves as if persistence were off. */
export function stateStoreOf(services: Services): StateStore {
  const store = services.stateStore;
  if (!store) {
    throw new BrowserMeshError(
      ErrorCodes.PERSISTENCE_DISABLED,
      'Saving browser state is not available in this runtime',
    );
  }
  return store;
}

/** Used by browser_session_create({ stateId }). */
export function loadSavedState(services: Services, stateId: string): Promise<StorageState> {
  return stateStoreOf(services).load(stateId);
}

export const stateSave = defineTool({
  name: 'browser_state_save',
  title: 'Save state',
  description:
    "Save a session's cookies and localStorage as stateId (replacing it), to start new sessions from.",
  profile: 'persistence',
  input: z.object({ ...sessionAddress, stateId: StateId }).strict(),
  output: SavedState.extend({ cookies: z.number().int(), origins: z.number().int(), replaced: z.boolean() }),
  hints: DESTRUCTIVE,
  async handler(args, { mesh, services, call }) {
    const store = stateStoreOf(services);
    store.check(args.stateId);
    return mesh.run(args.sessionId, 'state_save', (ctx) => saveState(ctx, store, args.stateId), call);
  },
});

export const stateList = defineTool({
  name: 'browser_state_list',
  title: 'List states',
  description: 'Saved states (id, bytes, savedAt) and quotas.',
  profile: 'persistence',
  timeout: false,
  input: z.object({}).strict(),
  output: z.object({
    states: z.array(SavedState),
    totalBytes: z.number().int(),
    limits: z.object({
      maxStates: z.number().int(),
      maxStateBytes: z.number().int(),
      maxTotalBytes: z.number().int(),
    }),
  }),
  hints: READ_ONLY,
  async handler(_args, { services }) {
    return stateStoreOf(services).list();
  },
});

export const stateRemove = defineTool({
  name: 'browser_state_remove',
  title: 'Remove state',
  description: 'Delete a saved state (removed=false if none).',
  profile: 'persistence',
  timeout: false,
  input: z.object({ stateId: StateId }).strict(),
  output: z.object({ stateId: z.string(), removed: z.boolean() }),
  hints: DESTRUCTIVE,
  async handler(args, { services }) {
    return stateStoreOf(services).remove(args.stateId);
  },
});
