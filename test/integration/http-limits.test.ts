/**
 * Limits a shared HTTP server needs: a cap on concurrent MCP clients, header and body timeouts for
 * slow senders, a per-principal rate limit — and a loopback load test (many parallel initialize
 * requests) showing the cap holds and the server keeps serving. No browser is launched.
 */
import { connect } from 'node:net';
import { describe, expect, test } from './support/fixtures.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import type { RunningHttpServer } from '../../src/mcp/http.js';
import { RateLimiter } from '../../src/mcp/http-limits.js';
import { connectHttp, INITIALIZE, ok, rawRequest, startTestHttpServer } from './support/mcp-http.js';

let mesh: BrowserMesh;
const servers: RunningHttpServer[] = [];

// The file's mesh comes from the shared fixtures; each test starts the servers it needs.
test.beforeAll(({ mesh: fileMesh }) => {
  mesh = fileMesh;
});
test.afterEach(async () => {
  await Promise.allSettled(servers.splice(0).map((s) => s.close()));
});

async function serve(overrides: Parameters<typeof startTestHttpServer>[1] = {}): Promise<RunningHttpServer> {
  const server = await startTestHttpServer(mesh, overrides);
  servers.push(server);
  return server;
}
const initialize = JSON.stringify(INITIALIZE);

/** Sends `text` on a raw socket and resolves with what came back once the server closes it. */
function sendAndWaitForClose(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

describe('HTTP limits', () => {
  test('caps concurrent MCP clients (503 + Retry-After) and frees a slot when one leaves', async () => {
    const server = await serve({ limits: { maxClients: 2 } });
    const a = await connectHttp(server.url);
    const b = await connectHttp(server.url);
    const refused = await rawRequest(server.url, { body: initialize });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(server.clientCount()).toBe(2);
    await a.transport.terminateSession();
    await a.client.close();
    const c = await connectHttp(server.url);
    expect(await ok(c.client, 'browser_runtime_info')).toBeDefined();
    await Promise.all([b.client.close(), c.client.close()]);
  });

  test('keeps a slot for every other principal: one principal cannot take every client slot', async () => {
    const alice = 'alice-token-0123456789abcdef';
    const bob = 'bob-token-0123456789abcdefgh';
    const server = await serve({
      limits: { maxClients: 4 },
      tokens: [
        { principal: 'alice', token: alice },
        { principal: 'bob', token: bob },
      ],
    });
    const asAlice = {
      authorization: `Bearer ${alice}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const statuses = await Promise.all(
      Array.from(
        { length: 6 },
        async () => (await rawRequest(server.url, { headers: asAlice, body: initialize })).status,
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 503)).toHaveLength(3);
    const b = await connectHttp(server.url, { token: bob });
    expect(await ok(b.client, 'browser_runtime_info')).toBeDefined();
    await b.client.close();
  });

  test('closes a connection whose headers never finish (before any token check)', async () => {
    const server = await serve({ limits: { headersTimeoutMs: 600 }, token: 'x'.repeat(20) });
    const reply = await sendAndWaitForClose(server.url, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(reply === '' || reply.startsWith('HTTP/1.1 408')).toBe(true);
  });

  test('closes a connection whose body never finishes', async () => {
    const server = await serve({ limits: { headersTimeoutMs: 600, bodyTimeoutMs: 900 } });
    const head =
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"json';
    const reply = await sendAndWaitForClose(server.url, head);
    expect(reply === '' || reply.startsWith('HTTP/1.1 408')).toBe(true);
  });

  test('rate-limits one principal (429 + Retry-After) without touching another', async () => {
    const server = await serve({
      limits: { ratePerMinute: 3 },
      tokens: [
        { principal: 'greedy', token: 'greedy-token-0123456789' },
        { principal: 'calm', token: 'calm-token-0123456789ab' },
      ],
    });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await rawRequest(server.url, {
        body: initialize,
        headers: { Authorization: 'Bearer greedy-token-0123456789' },
      });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const calm = await rawRequest(server.url, {
      body: initialize,
      headers: { Authorization: 'Bearer calm-token-0123456789ab' },
    });
    expect(calm.status).toBe(200);
  });

  test('load test: 200 parallel initialize requests never exceed the cap, and the server keeps serving', async () => {
    const server = await serve({ limits: { maxClients: 20 } });
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => rawRequest(server.url, { body: initialize })),
    );
    const accepted = responses.filter((r) => r.status === 200).length;
    const busy = responses.filter((r) => r.status === 503).length;
    expect(accepted).toBe(20);
    expect(busy).toBe(180);
    expect(server.clientCount()).toBe(20);
    // Refused initializations left nothing behind; the accepted clients still work.
    const sessionId = String(responses.find((r) => r.status === 200)?.headers['mcp-session-id']);
    const list = await rawRequest(server.url, {
      headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
    });
    expect(list.status).toBe(200);
  });
});

describe('RateLimiter', () => {
  test('refills evenly and allows a burst of one minute', () => {
    const limiter = new RateLimiter(60);
    for (let i = 0; i < 60; i++) expect(limiter.take('p', 0)).toBeUndefined();
    expect(limiter.take('p', 0)).toBe(1);
    expect(limiter.take('p', 1000)).toBeUndefined();
    expect(limiter.take('other', 0)).toBeUndefined();
    expect(new RateLimiter(0).take('p')).toBeUndefined();
  });
});
