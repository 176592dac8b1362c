import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_INSTRUCTIONS, DASHBOARD_INSTRUCTIONS } from './instructions.js';

/**
 * What `initialize` answers, known before anything heavy is loaded. The MCP server is built from the
 * same values (server.ts), so the early answer and the SDK's own answer cannot differ.
 *
 * Kept free of runtime imports from the MCP SDK: the SDK's types module builds several hundred zod
 * schemas on import, and stdio startup answers `initialize` before loading it (see docs/performance.md).
 */
export interface ServerIdentity {
  serverInfo: { name: string; version: string };
  capabilities: {
    tools: { listChanged: boolean };
    prompts: { listChanged: boolean };
    resources: { listChanged: boolean };
  };
  instructions?: string;
}

/** `dashboard`: the server serves the live dashboard, so the agent is told how to find its URL. */
export function serverIdentity(version: string, agentGuidelines: boolean, dashboard = false): ServerIdentity {
  return {
    serverInfo: { name: 'browsermesh', version },
    capabilities: {
      tools: { listChanged: false },
      prompts: { listChanged: false },
      resources: { listChanged: false },
    },
    ...(agentGuidelines
      ? { instructions: dashboard ? `${AGENT_INSTRUCTIONS}\n${DASHBOARD_INSTRUCTIONS}` : AGENT_INSTRUCTIONS }
      : {}),
  };
}

/**
 * The protocol versions the bundled MCP SDK negotiates, newest first (its SUPPORTED_PROTOCOL_VERSIONS;
 * a unit test fails when an SDK upgrade changes them).
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The id of a well-formed `initialize` request, or undefined for anything else. Only a request the
 * SDK would accept too (params with a string protocolVersion, a capabilities object and clientInfo
 * with a string name and version) is answered early; everything else waits for the SDK.
 */
export function earlyInitializeId(message: unknown): RequestId | undefined {
  if (!isObject(message) || message.jsonrpc !== '2.0' || message.method !== 'initialize') return undefined;
  const { id, params } = message;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return undefined;
  if (!isObject(params) || typeof params.protocolVersion !== 'string') return undefined;
  const { capabilities, clientInfo } = params;
  if (!isObject(capabilities) || !isObject(clientInfo)) return undefined;
  if (typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') return undefined;
  return id;
}

/** The SDK server's answer to this `initialize` (same version negotiation, same fields). */
export function initializeResponse(
  id: RequestId,
  requestedVersion: string,
  identity: ServerIdentity,
): JSONRPCMessage {
  const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requestedVersion)
    ? requestedVersion
    : (SUPPORTED_PROTOCOL_VERSIONS[0] ?? requestedVersion);
  return {
    jsonrpc: '2.0',
    id,
    result: {
      protocolVersion,
      capabilities: identity.capabilities,
      serverInfo: identity.serverInfo,
      ...(identity.instructions === undefined ? {} : { instructions: identity.instructions }),
    },
  };
}
