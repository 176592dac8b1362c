import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { BrowserMesh } from '../engine/runtime.js';

export const SESSIONS_URI = 'browsermesh://sessions';

/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

const SESSIONS_RESOURCE: Resource = {
  uri: SESSIONS_URI,
  name: 'sessions',
  title: 'Sessions',
  description: "This client's browser sessions with their state and labels.",
  mimeType: 'application/json',
};

/**
 * The read-only `browsermesh://sessions` resource. Sessions carry ids, labels, state and counts only:
 * no context settings, placement, page URLs or anything else that could hold a secret.
 */
export function registerResources(server: Server, mesh: BrowserMesh, owner: string | undefined): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [SESSIONS_RESOURCE] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== SESSIONS_URI) throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found');
    const sessions = mesh.listSessions({ owner }).map((session) => ({
      sessionId: session.sessionId,
      name: session.name,
      metadata: session.metadata,
      state: session.state,
      failureCode: session.failureCode,
      pageCount: session.pageCount,
      stateId: session.stateId,
      createdAt: session.createdAt,
    }));
    return {
      contents: [{ uri: SESSIONS_URI, mimeType: 'application/json', text: JSON.stringify({ sessions }) }],
    };
  });
}
