/**
 * Oversized and malformed input never ends the server: over stdio a line past the
 * message limit is skipped and refused while the transport stays open; a tools/call with the wrong
 * shape gets a short -32602 on every transport (stdio, in-memory, HTTP), never -32603 with the SDK's
 * validation dump; a very deep `_meta` is answered, not left without a reply.
 */
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from './support/fixtures.js';
import { createLogger } from '../../src/engine/logger.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { McpHarness } from '../helpers/harness.js';
import { StdioWire, type WireReply } from '../helpers/stdio-wire.js';
import { connectHttp, startTestHttpServer } from './support/mcp-http.js';

const NON_OBJECT_ARGUMENTS: unknown[] = [null, [], 'x', 42, true];
const MIB = 1024 * 1024;

let mesh: BrowserMesh;
let wire: StdioWire;

// The file's mesh comes from the shared fixtures; each test opens the transport it checks.
test.beforeAll(({ mesh: fileMesh }) => {
  mesh = fileMesh;
});

async function openWire(maxMessageBytes?: number): Promise<StdioWire> {
  wire = new StdioWire(createMcpServer({ mesh, logger: createLogger('silent') }), maxMessageBytes);
  await wire.start();
  return wire;
}
test.afterEach(async () => {
  await wire?.close();
});

/** A refusal: a JSON-RPC error with a short message that dumps no validation issues or values. */
function expectShortRefusal(reply: WireReply, code: number): void {
  expect(reply.error?.code).toBe(code);
  expect(reply.error?.message.length).toBeLessThan(120);
  expect(reply.error?.message).not.toMatch(/expected|received|"path"|invalid_type/i);
}

async function expectAlive(w: StdioWire, id: number): Promise<void> {
  const listed = await w.request(id, 'tools/list');
  expect((listed.result?.tools as unknown[]).length).toBeGreaterThan(10);
  expect(w.closed).toBe(false);
}

describe('stdio: message size', () => {
  test('refuses a line over the limit by its id and keeps serving', async () => {
    const w = await openWire(2 * MIB);
    // The MCP SDK client writes `id` last; the huge value sits before it.
    const huge = `{"method":"tools/call","params":{"name":"browser_session_close","arguments":{"sessionId":"${'s'.repeat(3 * MIB)}"}},"jsonrpc":"2.0","id":7}`;
    w.write(huge);
    expectShortRefusal(await w.reply(7), -32600);
    // id first (other clients), 13 MB: past the SDK's own 10 MiB buffer that used to end the server.
    w.write(
      `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"x","arguments":{"a":"${'a'.repeat(13 * MIB)}"}}}`,
    );
    expectShortRefusal(await w.reply('big'), -32600);
    await expectAlive(w, 8);
  });

  test('answers an oversized line whose id cannot be read with id null, and keeps serving', async () => {
    const w = await openWire(64 * 1024);
    w.write(`{"jsonrpc":"2.0","params":{"a":"${'a'.repeat(200_000)}"},"id":{"nested":1},"method":"x"}`);
    expectShortRefusal(await w.reply(null), -32600);
    await expectAlive(w, 2);
  });

  test('refuses a large argument under the limit by its schema, without echoing it', async () => {
    const w = await openWire();
    const sessionId = `${'\u202e'.repeat(10)}${'s'.repeat(3 * MIB)}`;
    const reply = await w.request(3, 'tools/call', {
      name: 'browser_session_close',
      arguments: { sessionId },
    });
    const content = (reply.result?.content as Array<{ text: string }>)[0]?.text ?? '';
    expect(reply.result?.isError).toBe(true);
    expect(JSON.parse(content).error.code).toBe('INVALID_ARGUMENT');
    expect(content.length).toBeLessThan(600);
    await expectAlive(w, 4);
  });
});

describe('stdio: malformed requests', () => {
  test('answers non-object arguments, a non-string name and non-object params with -32602', async () => {
    const w = await openWire();
    let id = 10;
    for (const args of NON_OBJECT_ARGUMENTS) {
      const reply = await w.request(++id, 'tools/call', { name: 'browser_runtime_info', arguments: args });
      expectShortRefusal(reply, -32602);
    }
    for (const name of [42, null, {}, ['browser_runtime_info']]) {
      expectShortRefusal(await w.request(++id, 'tools/call', { name, arguments: {} }), -32602);
    }
    for (const params of ['x', 42, [], null]) {
      expectShortRefusal(await w.request(++id, 'tools/call', params), -32602);
    }
    expectShortRefusal(await w.request(++id, 'tools/call', { name: 'x', _meta: 'x' }), -32602);
    await expectAlive(w, ++id);
  });

  test('answers a very deep _meta (and deep arguments) instead of staying silent', async () => {
    const w = await openWire(16 * MIB);
    const deep = `${'{"a":'.repeat(1_000_000)}1${'}'.repeat(1_000_000)}`;
    w.write(
      `{"method":"tools/call","params":{"name":"browser_runtime_info","_meta":${deep}},"jsonrpc":"2.0","id":31}`,
    );
    expectShortRefusal(await w.reply(31), -32600);
    const nested = JSON.parse(`${'{"a":'.repeat(100)}1${'}'.repeat(100)}`) as unknown;
    const reply = await w.request(32, 'tools/call', {
      name: 'browser_runtime_info',
      arguments: { a: nested },
    });
    expect(reply.error?.code ?? reply.result?.isError).toBeTruthy();
    await expectAlive(w, 33);
  });

  test('answers a line that is not JSON, or not JSON-RPC, and keeps serving', async () => {
    const w = await openWire();
    w.write('{"jsonrpc":"2.0","id":41,"method":');
    expectShortRefusal(await w.reply(null), -32700);
    w.write('{"jsonrpc":"1.0","id":42,"method":"tools/list"}');
    expectShortRefusal(await w.reply(42), -32600);
    w.write('\u0000\u0000');
    await expectAlive(w, 43);
  });
});

describe('every transport: malformed tools/call', () => {
  test('in-memory: -32602 with a short message', async () => {
    const harness = await McpHarness.start({}, mesh);
    try {
      for (const args of NON_OBJECT_ARGUMENTS) {
        const error = await harness.client
          .request(
            { method: 'tools/call', params: { name: 'browser_runtime_info', arguments: args as never } },
            CallToolResultSchema,
          )
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(-32602);
        expect((error as McpError).message.length).toBeLessThan(120);
      }
      expect((await harness.client.listTools()).tools.length).toBeGreaterThan(10);
    } finally {
      await harness.client.close();
    }
  });

  test('HTTP: -32602 for non-object arguments, 400 for a deep body, and the client keeps working', async () => {
    const server = await startTestHttpServer(mesh, { maxBodyBytes: 8 * MIB });
    const { client } = await connectHttp(server.url);
    try {
      for (const args of NON_OBJECT_ARGUMENTS) {
        const error = await client
          .request(
            { method: 'tools/call', params: { name: 'browser_runtime_info', arguments: args as never } },
            CallToolResultSchema,
          )
          .catch((e: unknown) => e);
        expect((error as McpError).code).toBe(-32602);
      }
      const deep = JSON.parse(`${'{"a":'.repeat(500)}1${'}'.repeat(500)}`) as Record<string, unknown>;
      const refused = await client
        .request({ method: 'tools/call', params: { name: 'x', _meta: deep } }, CallToolResultSchema)
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Error);
      expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
