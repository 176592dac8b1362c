/**
 * The agent of the browser_request_human / human.request tests: a mesh behind the Streamable HTTP
 * server with its dashboard (take-over off: a request's link is its own grant), and the official
 * MCP SDK client, with or without URL-mode elicitation, that records its results, the elicitations
 * it got and the completions it heard. `logLines` holds every log line of the server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { createDashboard } from '../../../src/dashboard/handler.js';
import { createLogger } from '../../../src/engine/logger.js';
import { createMcpServer } from '../../../src/mcp/server.js';
import type { RunningHttpServer } from '../../../src/mcp/http.js';
import { expect, test as fixtureTest, type DashboardSetup } from './dashboard.js';
import { PASSWORD } from './human.js';
import { startTestHttpServer } from './mcp-http.js';

export { describe, expect } from './dashboard.js';

const TOKEN = 'human-request-token-0123456789ab';

export const logLines: string[] = [];
const logger = createLogger('debug', (line) => void logLines.push(line));

export const test = fixtureTest
  .extend('dashboardSetup', { scope: 'file' }, (): DashboardSetup => ({
    token: TOKEN,
    takeover: false,
    config: { tools: ['core', 'watch', 'files', 'code'] },
  }))
  .extend('humanServer', { scope: 'file' }, async ({ mesh }, { onCleanup }) => {
    let dashboardUrl = '';
    const dashboard = createDashboard({ mesh, logger, takeover: false });
    const server: RunningHttpServer = await startTestHttpServer(mesh, {
      token: TOKEN,
      dashboard,
      createServer: (owner, principal) =>
        createMcpServer({
          mesh,
          logger,
          principal,
          ...(owner === undefined ? {} : { owner }),
          dashboardUrl: () => dashboardUrl,
        }),
    });
    dashboardUrl = server.url.replace(/\/mcp$/, '/dashboard/');
    onCleanup(() => server.close());
    return server;
  });

export interface Agent {
  client: Client;
  results: string[];
  elicitations: Array<{ mode?: string; url?: string; message?: string; elicitationId?: string }>;
  completed: string[];
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T>;
}

export async function connectAgent(url: string, elicitation: boolean): Promise<Agent> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  const client = new Client(
    { name: 'human-request-tests', version: '1.0.0' },
    { capabilities: elicitation ? { elicitation: { url: {} } } : {} },
  );
  const agent: Agent = {
    client,
    results: [],
    elicitations: [],
    completed: [],
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 180_000,
      })) as CallToolResult;
      agent.results.push(JSON.stringify(result));
      return result;
    },
    async ok(name, args) {
      const result = await agent.call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as never;
    },
  };
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      agent.elicitations.push(request.params as Agent['elicitations'][number]);
      return { action: 'accept' };
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (note) => {
      agent.completed.push(note.params.elicitationId);
    });
  }
  await client.connect(transport);
  return agent;
}

/** A new session on the login page (the file routes `/human/login` to LOGIN). */
export async function newSession(agent: Agent, site: { url(path: string): string }) {
  const created = await agent.ok<{ session: { sessionId: string }; initialPage: { pageId: string } }>(
    'browser_session_create',
    {},
  );
  const ids = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
  await agent.ok('browser_navigate', { ...ids, url: site.url('/human/login') });
  return ids;
}

export function expectNoPassword(texts: string[]): void {
  for (const text of texts) expect(text).not.toContain(PASSWORD);
}
