/** MCP over Streamable HTTP for the tests: the official SDK client, and raw requests for refusals. */
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createLogger } from '../../../src/engine/logger.js';
import type { BrowserMesh } from '../../../src/engine/runtime.js';
import { startHttpServer, type HttpServerOptions, type RunningHttpServer } from '../../../src/mcp/http.js';
import { createMcpServer } from '../../../src/mcp/server.js';

/** The HTTP server on 127.0.0.1, a free port, one MCP server per client, as the CLI wires it. */
export function startTestHttpServer(
  mesh: BrowserMesh,
  overrides: Partial<HttpServerOptions> = {},
): Promise<RunningHttpServer> {
  const logger = createLogger('silent');
  return startHttpServer({
    mesh,
    logger,
    host: '127.0.0.1',
    port: 0,
    token: '',
    sharedSessions: false,
    disconnectGraceMs: 60_000,
    maxBodyBytes: 64 * 1024,
    createServer: (owner, principal) =>
      createMcpServer({ mesh, logger, principal, ...(owner === undefined ? {} : { owner }) }),
    ...overrides,
  });
}

export interface HttpClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

export async function connectHttp(
  url: string,
  options: { token?: string; sessionId?: string } = {},
): Promise<HttpClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(options.token ? { requestInit: { headers: { Authorization: `Bearer ${options.token}` } } } : {}),
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
  });
  const client = new Client({ name: 'browsermesh-http-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** Calls a tool that must succeed; returns its structuredContent. */
export async function ok<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent as T;
}

/** Calls a tool that must fail; returns the structured error. */
export async function err(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ code: string; message: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} unexpectedly succeeded`);
  return (JSON.parse(textOf(result)) as { error: { code: string; message: string } }).error;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A raw HTTP request (node:http lets a test set Host, which fetch does not). `body` as a function
 * streams chunks without a Content-Length.
 */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | (() => AsyncIterable<Buffer>);
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...options.headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    // The server may answer (413) and close before the whole body is sent: that is not a failure here.
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    const body = options.body;
    if (typeof body === 'function') {
      void (async () => {
        for await (const chunk of body())
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        req.end();
      })().catch(() => undefined);
    } else {
      req.end(body);
    }
  });
}
