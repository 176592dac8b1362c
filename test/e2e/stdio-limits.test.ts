/**
 * Oversized and malformed requests against the built CLI over real stdio pipes: a 13 MB
 * request (past the MCP SDK's own 10 MiB read buffer, which used to close the transport and end the
 * CLI) is refused with -32600 by its id, non-object arguments get -32602, and the same process keeps
 * answering afterwards.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, baseEnv, CLI } from './cli-helpers.js';

let client: Client;
let transport: StdioClientTransport;

beforeAll(async () => {
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: baseEnv({ BROWSERMESH_LOG_LEVEL: 'warn' }),
    stderr: 'ignore',
  });
  client = new Client({ name: 'stdio-limits', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
});

const refusal = (promise: Promise<unknown>): Promise<McpError> =>
  promise.then(
    () => {
      throw new Error('expected a JSON-RPC error');
    },
    (error: unknown) => error as McpError,
  );

describe('stdio limits (built CLI)', () => {
  it('refuses a 13 MB request and keeps the same process serving', async () => {
    const pid = transport.pid;
    expect(pid).not.toBeNull();
    const error = await refusal(
      client.callTool({ name: 'browser_session_close', arguments: { sessionId: 's'.repeat(13_000_000) } }),
    );
    expect(error.code).toBe(-32600);
    expect(error.message.length).toBeLessThan(200);
    const tools = await client.listTools();
    expect(tools.tools.length).toBeGreaterThan(10);
    expect(alive(pid ?? -1)).toBe(true);
  });

  it('answers non-object arguments with -32602 and keeps serving', async () => {
    for (const args of [null, [], 'x', 42]) {
      const error = await refusal(
        client.request(
          { method: 'tools/call', params: { name: 'browser_runtime_info', arguments: args as never } },
          CallToolResultSchema,
        ),
      );
      expect(error.code).toBe(-32602);
    }
    expect((await client.callTool({ name: 'browser_runtime_info', arguments: {} })).isError).not.toBe(true);
  });
});
