/**
 * The shared MCP contract over Streamable HTTP, against the built CLI started with `--http --port 0`
 * and a bearer token; the server must exit cleanly on SIGTERM and never log the token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { alive, baseEnv, CLI, descendants, runCli, waitFor } from './cli-helpers.js';
import { defineContract } from './contract.js';

const TOKEN = 'contract-http-token-5f0c1e9a';
let site: FixtureServer;
let client: Client;
let server: ChildProcess;
let logs = '';

beforeAll(async () => {
  site = await startFixtureServer();
  server = spawn(process.execPath, [CLI, '--http', '--port', '0'], {
    // HTTP mode blocks loopback by default (URL policy); the contract runs against the loopback fixture.
    env: baseEnv({
      BROWSERMESH_HTTP_TOKEN: TOKEN,
      BROWSERMESH_BLOCK_PRIVATE_NETWORK: 'off',
      // runtime_info must not launch a browser; warm-up (on by default) would, and has its own test.
      BROWSERMESH_WARM_UP: 'false',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stderr?.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no HTTP URL printed:\n${logs}`)), 30_000);
    server.stderr?.on('data', () => {
      const match = /MCP over Streamable HTTP at (http:\/\/\S+)/.exec(logs);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.once('exit', () => reject(new Error(`the server exited:\n${logs}`)));
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  client = new Client({ name: 'contract-http', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await site?.close();
});

describe('MCP contract over Streamable HTTP', () => {
  defineContract(
    () => client,
    () => site,
  );

  it('stops on SIGTERM with no Chromium left, and never logged the token', async () => {
    await client.callTool({ name: 'browser_session_create', arguments: {} });
    const tree = descendants(server.pid ?? 0);
    expect(tree.length).toBeGreaterThan(0);
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await waitFor(() => tree.every((pid) => !alive(pid)))).toBe(true);
    expect(logs).toContain('"event":"tool_call"');
    expect(logs).not.toContain(TOKEN);
  });

  it('exits 2 for a non-loopback host without a token, naming the flag and echoing no secret', () => {
    const open = runCli(['--http', '--host', '0.0.0.0']);
    expect(open.status).toBe(2);
    expect(open.stderr).toContain('--host');
    expect(open.stderr).toContain('BROWSERMESH_HTTP_TOKEN');
    const weak = runCli(['--http'], { BROWSERMESH_HTTP_TOKEN: 'weak-secret' });
    expect(weak.status).toBe(2);
    expect(weak.stderr).toContain('BROWSERMESH_HTTP_TOKEN');
    expect(weak.stderr).not.toContain('weak-secret');
  });
});
