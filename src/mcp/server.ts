import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode as McpErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from '../engine/logger.js';
import type { BrowserMesh } from '../engine/runtime.js';
import { installPageHooks } from '../create-mesh.js';
import type { AnyTool, UrlElicitation } from '../tools/define.js';
import type { InvokeResult } from '../tools/invoke.js';
import type { Services } from '../tools/services.js';
import { clientRoots } from './client-roots.js';
import { serverIdentity } from './early-initialize.js';
import { GuardedTransport } from './guarded-transport.js';
import { startCallProgress } from './progress.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { lazyToolCatalog, prebuiltListing } from './tool-catalog.js';
import { ServerWarmUp } from './warm-up.js';

export interface McpServerOptions {
  mesh: BrowserMesh;
  logger: Logger;
  /** Defaults to the services the configuration implies (the saved-state store). */
  services?: Services;
  /** Owner key for the sessions this connection creates (HTTP transport: one per client). */
  owner?: string;
  /** Who the client authenticated as (HTTP): its saved states, session quota and counts. */
  principal?: string;
  /** Override the published tools (defaults to the configured profiles). */
  tools?: AnyTool[];
  /**
   * Load the tools once the client has initialized, launch Chromium at its first tools/list, start a
   * sandbox worker once that launch ended (warm-up.ts). The CLI sets it from config.
   */
  warmUp?: boolean;
  /** The stdio dashboard's URL once it listens (the agent can tell its user where to watch). */
  dashboardUrl?: () => string | undefined;
}

/**
 * The only place that speaks MCP: tools → tools/list entries, results → CallToolResult. The tools
 * themselves load on first use (tool-catalog.ts), so building the server and answering `initialize`
 * cost only the SDK; `warmUp` starts loading them, with the browser, once a client has initialized.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { mesh, logger } = options;
  const config = mesh.config;
  const source = {
    config,
    tools: options.tools,
    services: options.services,
    principal: options.principal,
    dashboardUrl: options.dashboardUrl,
  };
  const catalog = lazyToolCatalog(source);
  // Page hooks (capture, dialogs) must be attached before the first session exists; installing twice is a no-op.
  installPageHooks(mesh);

  const identity = serverIdentity(
    mesh.runtimeInfo().versions.browsermesh,
    config.agentGuidelines,
    config.dashboard,
  );
  const server = new GuardedServer(identity.serverInfo, {
    capabilities: identity.capabilities,
    ...(identity.instructions === undefined ? {} : { instructions: identity.instructions }),
  });

  // Answered without loading the tools when the build-time listing describes them.
  const prebuilt = prebuiltListing(source);
  const warmUp = options.warmUp ? new ServerWarmUp(mesh, catalog, prebuilt) : undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    warmUp?.listed();
    return { tools: prebuilt ?? (await catalog()).listing() };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    await warmUp?.beforeCall();
    const { byName, invoke } = await catalog();
    const tool = byName.get(request.params.name);
    // The name is the client's text: never echoed (it may carry anything).
    if (!tool) throw new McpError(McpErrorCode.InvalidParams, 'Unknown tool (see tools/list)');
    const token = request.params._meta?.progressToken;
    const progress =
      token === undefined ? undefined : startCallProgress(token, tool.name, (n) => extra.sendNotification(n));
    try {
      const result = await invoke(tool, request.params.arguments ?? {}, {
        mesh,
        logger,
        signal: extra.signal,
        owner: options.owner,
        progress: progress?.sink,
        principal: options.principal,
        clientRoots: () => clientRoots(server),
        elicitUrl: urlElicitation(server, extra.requestId),
      });
      return toCallToolResult(result);
    } finally {
      progress?.stop();
      // After this answer is written, so it is not delayed.
      warmUp?.answered();
    }
  });

  warmUp?.install(server);
  registerPrompts(server, async () => new Set((await catalog()).byName.keys()));
  registerResources(server, mesh, options.owner);
  return server;
}

/**
 * The SDK server behind a GuardedTransport, whatever transport it is connected to: a malformed
 * `tools/call` gets a short -32602 on every transport instead of the SDK's -32603 validation dump.
 */
class GuardedServer extends Server {
  override connect(transport: Transport): Promise<void> {
    return super.connect(new GuardedTransport(transport));
  }
}

/**
 * URL-mode elicitation for a call, when the client declared `elicitation: { url: {} }`: sent as part
 * of the call's own request (over HTTP, on its response stream), so it reaches the client that asked.
 */
function urlElicitation(server: Server, requestId: RequestId): UrlElicitation | undefined {
  if (!server.getClientCapabilities()?.elicitation?.url) return undefined;
  return {
    async ask({ elicitationId, url, message }) {
      // No request timeout: the client answers once its user chose whether to open the link.
      const result = await server.elicitInput(
        { mode: 'url', elicitationId, url, message },
        { relatedRequestId: requestId, timeout: 24 * 3600_000 },
      );
      return result.action;
    },
    complete: (elicitationId) =>
      server.createElicitationCompletionNotifier(elicitationId, { relatedRequestId: requestId })(),
  };
}

export function toCallToolResult(result: InvokeResult): CallToolResult {
  if (!result.ok) {
    return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: result.error }) }] };
  }
  return {
    structuredContent: result.structured,
    content: [
      { type: 'text', text: result.text },
      ...result.images.map((image) => ({
        type: 'image' as const,
        data: image.data,
        mimeType: image.mimeType,
      })),
      ...result.resources.map((resource) => ({ type: 'resource' as const, resource })),
    ],
  };
}
