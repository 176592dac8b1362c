/**
 * Where a desktop client's user learns the dashboard's address: the built CLI
 * over Streamable HTTP with --dashboard gives its URL in browser_runtime_info too, and both
 * transports tell the agent at connect time (the MCP instructions) where to find it. A stable
 * --dashboard-port gives the same address every run. The operator's token is never printed or
 * returned (what is said is where it comes from); a dashboard without one makes its own, given in the
 * address's fragment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, CLI } from './cli-helpers.js';

const TOKEN = 'e2e-dashboard-where-token-0123456789';
type Info = { dashboard?: { url: string; token: string } };

let server: ChildProcess | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  if (server && server.exitCode === null) server.kill('SIGKILL');
  client = undefined;
  server = undefined;
});

/** A loopback port free right now (the stable --dashboard-port a recipe would pin). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function waitForLine(logs: () => string, pattern: RegExp, exited: Promise<unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = pattern.exec(logs());
      if (match?.[1]) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`the server exited:\n${logs()}`));
    });
  });
}

describe('the dashboard URL where a desktop client user sees it', () => {
  it('over HTTP: runtime_info gives the dashboard URL and where its token comes from; instructions point there', async () => {
    let logs = '';
    server = spawn(process.execPath, [CLI, '--http', '--port', '0', '--dashboard'], {
      env: baseEnv({ BROWSERMESH_HTTP_TOKEN: TOKEN, BROWSERMESH_WARM_UP: 'false' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stderr?.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    const mcpUrl = await waitForLine(() => logs, /MCP over Streamable HTTP at (http:\/\/\S+)/, exited);
    const shown = await waitForLine(() => logs, /dashboard at (http:\/\/\S+)/, exited);
    expect(shown).toBe(mcpUrl.replace(/\/mcp$/, '/dashboard/'));
    // The stderr line says where the token comes from, never what it is.
    expect(logs).toContain('#token=<your MCP bearer token');
    expect(logs).not.toContain(TOKEN);

    client = new Client({ name: 'e2e-dashboard-http', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    expect(client.getInstructions()).toContain('browser_runtime_info gives its URL (dashboard.url');
    const info = await client.callTool({ name: 'browser_runtime_info', arguments: {} });
    expect((info.structuredContent as Info).dashboard).toEqual({ url: shown, token: 'http-token' });
    expect(JSON.stringify(info)).not.toContain(TOKEN);
    expect((await fetch(`${shown}api/state`)).status).toBe(401);
    const state = await fetch(`${shown}api/state`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(state.status).toBe(200);
  });

  it('over stdio with a stable --dashboard-port: the same address every run, told at connect time', async () => {
    const port = await freePort();
    const stderr = new PassThrough();
    let logs = '';
    stderr.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--dashboard', '--dashboard-port', String(port)],
      env: baseEnv({ BROWSERMESH_WARM_UP: 'false' }),
      stderr: 'pipe',
    });
    transport.stderr?.pipe(stderr);
    client = new Client({ name: 'e2e-dashboard-stdio', version: '1.0.0' });
    await client.connect(transport);
    // The early (pre-SDK) initialize answer carries the same instructions as the SDK's.
    expect(client.getInstructions()).toContain('browser_runtime_info gives its URL (dashboard.url');
    const url = `http://127.0.0.1:${port}/dashboard/`;
    let info: Info = {};
    for (let i = 0; i < 200 && !info.dashboard; i++) {
      info = (await client.callTool({ name: 'browser_runtime_info', arguments: {} }))
        .structuredContent as Info;
      if (!info.dashboard) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // No token configured: the dashboard makes its own, in the address's fragment (opened as is), and
    // every data request needs it: another local user reaching the port gets 401.
    const own = /#token=([\w-]{32})$/.exec(info.dashboard?.url ?? '')?.[1] ?? '';
    expect(info.dashboard).toEqual({ url: `${url}#token=${own}`, token: 'none' });
    expect(logs).toContain(`dashboard at ${url}#token=${own}\n`);
    expect((await fetch(`${url}api/state`)).status).toBe(401);
    expect((await fetch(`${url}api/state`, { headers: { Authorization: `Bearer ${own}` } })).status).toBe(
      200,
    );
  });
});
