import { z } from 'zod';
import { ACTION, defineTool, DESTRUCTIVE, READ_ONLY } from './define.js';
import { PageInfoSchema, SessionId, SessionInfoSchema } from './schemas.js';
import { ContextSettingsSchema, SessionMetadata, SessionName } from './session-inputs.js';
import { loadSavedState, StateId } from './state.js';

export const sessionCreate = defineTool({
  name: 'browser_session_create',
  title: 'Create session',
  description:
    'Open an isolated session (own cookies, storage, auth state, pages): one per user account, role or parallel task; a saved state (browser_state_save) can start it logged in.',
  profile: 'core',
  alsoIn: ['code'],
  input: z
    .object({
      name: SessionName.optional(),
      metadata: SessionMetadata.optional(),
      contextSettings: ContextSettingsSchema.optional(),
      stateId: StateId.optional().describe('Start from this saved state.'),
    })
    .strict(),
  output: z.object({ session: SessionInfoSchema, initialPage: PageInfoSchema }),
  hints: { ...ACTION, openWorldHint: false },
  async handler(args, { mesh, services, call, progress }) {
    // The first session launches (or connects to) the browser: the slow part worth announcing.
    if (mesh.runtimeInfo().browser.state !== 'ready') progress?.('starting the browser');
    const storageState =
      args.stateId === undefined
        ? undefined
        : { id: args.stateId, state: await loadSavedState(services, args.stateId) };
    return mesh.createSession(
      { name: args.name, metadata: args.metadata, contextSettings: args.contextSettings, storageState },
      call,
    );
  },
});

export const sessionList = defineTool({
  name: 'browser_session_list',
  title: 'List sessions',
  description: "This client's sessions: state, labels, page counts.",
  profile: 'core',
  alsoIn: ['code'],
  timeout: false,
  input: z.object({}).strict(),
  output: z.object({ sessions: z.array(SessionInfoSchema) }),
  hints: READ_ONLY,
  async handler(_args, { mesh, call }) {
    return { sessions: mesh.listSessions(call) };
  },
});

export const sessionGet = defineTool({
  name: 'browser_session_get',
  title: 'Get session',
  description: 'One session: state, labels, settings, placement and pages.',
  profile: 'core',
  timeout: false,
  input: z.object({ sessionId: SessionId }).strict(),
  output: z.object({ session: SessionInfoSchema, pages: z.array(PageInfoSchema) }),
  hints: READ_ONLY,
  async handler(args, { mesh, call }) {
    const session = mesh.getSession(args.sessionId, call);
    return { session: session.toInfo(), pages: session.pageInfos() };
  },
});

export const sessionClose = defineTool({
  name: 'browser_session_close',
  title: 'Close session',
  description: 'Close a session, ending its queued and running calls; closing again succeeds.',
  profile: 'core',
  alsoIn: ['code'],
  input: z.object({ sessionId: SessionId }).strict(),
  output: z.object({ sessionId: z.string(), state: z.string(), alreadyClosed: z.boolean() }),
  hints: DESTRUCTIVE,
  async handler(args, { mesh, call }) {
    const { session, alreadyClosed } = await mesh.closeSession(args.sessionId, call);
    return { sessionId: session.sessionId, state: session.state, alreadyClosed };
  },
});
