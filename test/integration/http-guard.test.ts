/**
 * The HTTP guard in front of MCP: bearer token (missing, wrong, right), Host and Origin against DNS
 * rebinding, body size limits, and no secret in any log line.
 */
import { describe, expect, test } from './support/fixtures.js';
import { createLogger } from '../../src/engine/logger.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import { startHttpServer, type RunningHttpServer } from '../../src/mcp/http.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { connectHttp, INITIALIZE, ok, rawRequest, startTestHttpServer } from './support/mcp-http.js';

const TOKEN = 'test-token-0123456789abcdef';
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

describe('HTTP bearer token', () => {
  test('refuses a missing or wrong token and accepts the right one', async () => {
    const server = await serve({ token: TOKEN });
    const missing = await rawRequest(server.url, { body: initialize });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    for (const header of [
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      'Bearer ',
      `Basic ${TOKEN}`,
      TOKEN,
    ]) {
      const wrong = await rawRequest(server.url, { body: initialize, headers: { Authorization: header } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).not.toContain(TOKEN);
    }
    await expect(connectHttp(server.url)).rejects.toThrow();

    const { client } = await connectHttp(server.url, { token: TOKEN });
    const info = await ok<{ browser: { provider: string } }>(client, 'browser_runtime_info');
    expect(info.browser.provider).toBe('local');
    await client.close();
  });

  test('will not serve a non-loopback address without a token', async () => {
    const logger = createLogger('silent');
    await expect(
      startHttpServer({
        mesh,
        logger,
        host: '0.0.0.0',
        port: 0,
        token: '',
        sharedSessions: false,
        disconnectGraceMs: 1000,
        maxBodyBytes: 1024,
        createServer: (owner) => createMcpServer({ mesh, logger, ...(owner ? { owner } : {}) }),
      }),
    ).rejects.toThrow(/token/);
  });

  test('never writes the token to the logs', async () => {
    let logs = '';
    const logger = createLogger('debug', (line) => (logs += line));
    const server = await startHttpServer({
      mesh,
      logger,
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      sharedSessions: false,
      disconnectGraceMs: 60_000,
      maxBodyBytes: 65_536,
      createServer: (owner) => createMcpServer({ mesh, logger, ...(owner ? { owner } : {}) }),
    });
    servers.push(server);
    await rawRequest(server.url, {
      body: initialize,
      headers: { Authorization: 'Bearer wrong-token-value-000' },
    });
    const { client } = await connectHttp(server.url, { token: TOKEN });
    await ok(client, 'browser_session_list');
    await client.close();
    expect(logs).toContain('http_refused');
    expect(logs).not.toContain(TOKEN);
    expect(logs).not.toContain('wrong-token-value');
  });
});

describe('HTTP Host and Origin (DNS rebinding)', () => {
  test('refuses a foreign Host or Origin and accepts loopback ones', async () => {
    const server = await serve();
    const port = new URL(server.url).port;
    const badHost = await rawRequest(server.url, {
      body: initialize,
      headers: { Host: `attacker.example:${port}` },
    });
    expect(badHost.status).toBe(403);
    for (const origin of ['http://attacker.example', 'null', 'file://']) {
      const badOrigin = await rawRequest(server.url, { body: initialize, headers: { Origin: origin } });
      expect(badOrigin.status).toBe(403);
    }
    const good = await rawRequest(server.url, {
      body: initialize,
      headers: { Origin: 'http://localhost:6274', Host: `localhost:${port}` },
    });
    expect(good.status).toBe(200);
  });

  test('accepts a configured host name', async () => {
    const server = await serve({ allowedHosts: ['mesh.internal'] });
    const port = new URL(server.url).port;
    const allowed = await rawRequest(server.url, {
      body: initialize,
      headers: { Host: `mesh.internal:${port}` },
    });
    expect(allowed.status).toBe(200);
  });
});

describe('HTTP request limits and routing', () => {
  test('refuses an oversize body, declared or streamed', async () => {
    const server = await serve({ maxBodyBytes: 4096 });
    const declared = await rawRequest(server.url, {
      body: JSON.stringify({ ...INITIALIZE, pad: 'x'.repeat(5000) }),
    });
    expect(declared.status).toBe(413);
    const streamed = await rawRequest(server.url, {
      headers: { 'Transfer-Encoding': 'chunked' },
      body: async function* () {
        for (let i = 0; i < 64; i++) yield Buffer.alloc(1024, 0x20);
      },
    });
    expect(streamed.status).toBe(413);
    // Under the limit the same server still answers.
    expect((await rawRequest(server.url, { body: initialize })).status).toBe(200);
  });

  test('answers bad JSON, unknown paths, unknown sessions and session-less calls with errors', async () => {
    const server = await serve();
    expect((await rawRequest(server.url, { body: '{not json' })).status).toBe(400);
    expect((await rawRequest(server.url.replace('/mcp', '/other'), { body: initialize })).status).toBe(404);
    const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await rawRequest(server.url, { body: toolsList })).status).toBe(400);
    const unknown = await rawRequest(server.url, {
      body: toolsList,
      headers: { 'Mcp-Session-Id': 'no-such-session' },
    });
    expect(unknown.status).toBe(404);
    expect((await rawRequest(server.url, { method: 'PUT', body: initialize })).status).toBe(405);
  });
});
