import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserMesh } from '../../src/create-mesh.js';
import { createLogger } from '../../src/engine/logger.js';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import { serverIdentity } from '../../src/mcp/early-initialize.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { BoundedStdioServerTransport } from '../../src/mcp/stdio-transport.js';
import { testConfig } from '../helpers/harness.js';

/**
 * stdio startup answers `initialize` before the MCP server exists: the transport reads
 * early, answers from the server's identity, holds every other line, and hands them all to the
 * server once it connects. The official SDK client drives it over a pair of in-process pipes.
 */

const meshes: BrowserMesh[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const mesh of meshes.splice(0)) await mesh.shutdown();
});

function newMesh(): BrowserMesh {
  const mesh = createBrowserMesh({ config: testConfig(), logger: createLogger('silent') });
  meshes.push(mesh);
  return mesh;
}

/** A server-side transport reading early, and the official client on the other end of its pipes. */
function earlyPair(mesh: BrowserMesh): {
  transport: BoundedStdioServerTransport;
  client: Client;
  clientSide: StdioServerTransport;
  answered: Promise<void>;
  toServer: PassThrough;
  fromServer: PassThrough;
} {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const transport = new BoundedStdioServerTransport(4 * 1024 * 1024, toServer, fromServer);
  const identity = serverIdentity(mesh.runtimeInfo().versions.browsermesh, mesh.config.agentGuidelines);
  const answered = new Promise<void>((resolve) => transport.answerEarly(identity, resolve));
  // The SDK's stdio transport is symmetric: given the server's pipes reversed, it is a client transport.
  const clientSide = new StdioServerTransport(fromServer, toServer);
  const client = new Client({ name: 'early-test', version: '1.0.0' }, { capabilities: { roots: {} } });
  clients.push(client);
  return { transport, client, clientSide, answered, toServer, fromServer };
}

/** What the SDK server itself answers to `initialize`, over the in-memory transport. */
async function sdkAnswer(mesh: BrowserMesh): Promise<{ version: unknown; caps: unknown; text: unknown }> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ mesh, logger: createLogger('silent') }).connect(a);
  const client = new Client({ name: 'reference', version: '1.0.0' });
  clients.push(client);
  await client.connect(b);
  return {
    version: client.getServerVersion(),
    caps: client.getServerCapabilities(),
    text: client.getInstructions(),
  };
}

describe('initialize answered before the server is loaded', () => {
  it('answers the official client with what the SDK server answers, then serves it', async () => {
    const mesh = newMesh();
    const { transport, client, clientSide, answered } = earlyPair(mesh);
    // No server exists yet: the client completes its handshake against the transport alone.
    await client.connect(clientSide);
    await answered;
    expect({
      version: client.getServerVersion(),
      caps: client.getServerCapabilities(),
      text: client.getInstructions(),
    }).toEqual(await sdkAnswer(mesh));

    const server = createMcpServer({ mesh, logger: createLogger('silent') });
    await server.connect(transport);
    // The held initialize reached the server: it knows what the client declared.
    expect(server.getClientCapabilities()).toEqual({ roots: {} });
    expect(server.getClientVersion()).toEqual({ name: 'early-test', version: '1.0.0' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('browser_session_create');
  });

  it('holds requests sent before the server connects and answers each once, in order', async () => {
    const mesh = newMesh();
    const { transport, toServer, fromServer } = earlyPair(mesh);
    const lines: Array<{ id?: number; result?: Record<string, unknown>; error?: { code: number } }> = [];
    let pending = '';
    fromServer.setEncoding('utf8');
    fromServer.on('data', (text: string) => {
      const parts = (pending + text).split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) lines.push(JSON.parse(part) as (typeof lines)[number]);
    });
    const send = (message: object): boolean => toServer.write(`${JSON.stringify(message)}\n`);
    const params = {
      protocolVersion: '2099-01-01',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'prompts/list' });
    await waitUntil(() => lines.length >= 1);
    // An unknown protocol version is answered with the newest supported one, as the SDK does.
    expect(lines[0]?.id).toBe(1);
    expect(lines[0]?.result?.protocolVersion).toBe('2025-11-25');
    expect(lines).toHaveLength(1);

    await createMcpServer({ mesh, logger: createLogger('silent') }).connect(transport);
    await waitUntil(() => lines.length >= 3);
    expect(lines.map((line) => line.id)).toEqual([1, 2, 3]);
    expect((lines[1]?.result?.tools as unknown[]).length).toBeGreaterThan(10);
    expect(lines[2]?.result?.prompts).toBeDefined();
  });

  it('leaves a malformed initialize to the SDK server, which refuses it once connected', async () => {
    const mesh = newMesh();
    const { transport, toServer, fromServer } = earlyPair(mesh);
    const replies: Array<{ id?: number; error?: { code: number }; result?: unknown }> = [];
    fromServer.setEncoding('utf8');
    fromServer.on('data', (text: string) => {
      for (const line of text.split('\n').filter(Boolean))
        replies.push(JSON.parse(line) as (typeof replies)[number]);
    });
    // clientInfo without a version, then a non-object capabilities: neither is answered early.
    const bad = [
      { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x' } },
      { protocolVersion: '2025-06-18', capabilities: 'all', clientInfo: { name: 'x', version: '1' } },
    ];
    bad.forEach((params, index) =>
      toServer.write(`${JSON.stringify({ jsonrpc: '2.0', id: index + 1, method: 'initialize', params })}\n`),
    );
    // A ping sent after them is held too: nothing at all is answered before the server connects.
    toServer.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' })}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(replies).toEqual([]);

    await createMcpServer({ mesh, logger: createLogger('silent') }).connect(transport);
    await waitUntil(() => replies.length >= 3);
    expect(replies.map((reply) => reply.id)).toEqual([1, 2, 3]);
    expect(replies[0]?.error).toBeDefined();
    expect(replies[1]?.error).toBeDefined();
    expect(replies[2]?.result).toEqual({});
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
