/**
 * An MCP client that went idle (it keeps its GET event stream open, or it is gone) held its
 * client slot for the 300 s grace period or longer, so idle clients could fill `--max-clients`. The
 * idle time is a setting (`httpClientIdleMs`); tested here with a small value. No browser is launched.
 */
import { describe, expect, test } from './support/fixtures.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import type { RunningHttpServer } from '../../src/mcp/http.js';
import { testConfig } from '../helpers/harness.js';
import { connectHttp, INITIALIZE, ok, rawRequest, startTestHttpServer } from './support/mcp-http.js';
import { waitFor } from './support/wait.js';

let mesh: BrowserMesh;
const servers: RunningHttpServer[] = [];

// The file's mesh comes from the shared fixtures; each test starts the servers it needs.
test.beforeAll(({ mesh: fileMesh }) => {
  mesh = fileMesh;
});
test.afterEach(async () => {
  await Promise.allSettled(servers.splice(0).map((s) => s.close()));
});

const IDLE_MS = 1500;

async function serve(): Promise<RunningHttpServer> {
  const server = await startTestHttpServer(mesh, { limits: { maxClients: 2, clientIdleMs: IDLE_MS } });
  servers.push(server);
  return server;
}

describe('idle MCP client slots', () => {
  test('frees the slot of a client that holds its event stream open but sends nothing', async () => {
    const server = await serve();
    const idle = await connectHttp(server.url);
    const other = await connectHttp(server.url);
    const refused = await rawRequest(server.url, { body: JSON.stringify(INITIALIZE) });
    expect(refused.status).toBe(503);

    // Both go idle; their slots come free and a newcomer is served.
    await waitFor(
      async () => (await rawRequest(server.url, { body: JSON.stringify(INITIALIZE) })).status === 200,
      30_000,
      'an idle slot to be freed',
    );
    // The idle client's MCP session is gone: its next call fails (it must initialize again).
    await expect(idle.client.callTool({ name: 'browser_runtime_info', arguments: {} })).rejects.toThrow();
    await Promise.allSettled([idle.client.close(), other.client.close()]);
  });

  test('keeps a client that keeps sending requests, well past the idle time', async () => {
    const server = await serve();
    const busy = await connectHttp(server.url);
    // A call every fifth of the idle time, for three idle times. Paced, not as fast as it can: a
    // tight loop on a fast machine spends the rate limit (600 a minute) and is refused with 429.
    const until = Date.now() + IDLE_MS * 3;
    let calls = 0;
    while (Date.now() < until) {
      await ok(busy.client, 'browser_runtime_info');
      calls++;
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 5));
    }
    expect(calls).toBeGreaterThan(5);
    expect(server.clientCount()).toBe(1);
    expect(await ok(busy.client, 'browser_runtime_info')).toHaveProperty('sessions');
    await busy.client.close();
  });

  test('the idle time defaults to 300 s', () => {
    expect(testConfig().httpClientIdleMs).toBe(300_000);
  });
});
