import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { alive, baseEnv, CLI, descendants, runCli, waitFor } from './cli-helpers.js';

let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer();
});
afterAll(async () => {
  await site?.close();
});

describe('the built CLI over stdio', () => {
  it('serves MCP on stdout, logs only to stderr, never logs secrets, and leaves no Chromium behind', async () => {
    const stderr = new PassThrough();
    let logs = '';
    stderr.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI],
      env: baseEnv(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(transport);
    transport.stderr?.pipe(stderr);
    expect(client.getInstructions()).toContain('sessionId');
    expect(client.getInstructions()).not.toMatch(/star|gh api/i);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('browser_session_create');
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.title).toBeTruthy();
      expect(tool.annotations).toBeTypeOf('object');
    }

    const created = (await client.callTool({ name: 'browser_session_create', arguments: { name: 'e2e' } }))
      .structuredContent as {
      session: { sessionId: string };
      initialPage: { pageId: string };
    };
    const address = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
    const secretUrl = site.url('/cookie-set?name=auth&value=tok-SECRET-4242&token=SECRET-4242');
    const nav = await client.callTool({
      name: 'browser_navigate',
      arguments: { ...address, url: secretUrl },
    });
    expect(nav.isError).toBeFalsy();
    const serverPid = transport.pid;
    expect(serverPid).toBeTypeOf('number');
    const tree = descendants(serverPid!);
    expect(tree.length).toBeGreaterThan(0);

    await client.close();
    expect(await waitFor(() => !alive(serverPid!) && tree.every((pid) => !alive(pid)))).toBe(true);
    expect(logs).toContain('"event":"tool_call"');
    expect(logs).not.toContain('SECRET-4242');
  });

  it('shuts down cleanly on SIGTERM without orphaned Chromium processes', async () => {
    const child = spawn(process.execPath, [CLI], { env: baseEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const client = new Client({ name: 'e2e-sigterm', version: '1.0.0' });
    // The SDK client over this child's own pipes (StdioClientTransport would spawn its own process
    // and hide the pid we need to signal), with the SDK's stdio framing.
    const { ReadBuffer, serializeMessage } = await import('@modelcontextprotocol/sdk/shared/stdio.js');
    const buffer = new ReadBuffer();
    const transport = {
      onmessage: undefined as ((m: unknown) => void) | undefined,
      onclose: undefined as (() => void) | undefined,
      onerror: undefined as ((e: Error) => void) | undefined,
      async start() {
        child.stdout.on('data', (chunk: Buffer) => {
          buffer.append(chunk);
          for (let message = buffer.readMessage(); message; message = buffer.readMessage())
            transport.onmessage?.(message);
        });
      },
      async send(message: unknown) {
        child.stdin.write(serializeMessage(message as Parameters<typeof serializeMessage>[0]));
      },
      async close() {
        child.stdin.end();
      },
    };
    await client.connect(transport as unknown as Parameters<Client['connect']>[0]);
    await client.callTool({ name: 'browser_session_create', arguments: {} });
    const tree = descendants(child.pid!);
    expect(tree.length).toBeGreaterThan(0);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await waitFor(() => tree.every((pid) => !alive(pid)))).toBe(true);
  });
});

describe('configuration and commands', () => {
  it('exits 2 naming the variable or flag of a bad value, without a stack trace', () => {
    const byEnv = runCli([], { BROWSERMESH_TIMEOUT_MS: 'soon' });
    expect(byEnv.status).toBe(2);
    expect(byEnv.stderr).toContain('BROWSERMESH_TIMEOUT_MS');
    expect(byEnv.stderr).not.toMatch(/\n\s+at /);
    const byFlag = runCli(['--tools', 'core,bogus']);
    expect(byFlag.status).toBe(2);
    expect(byFlag.stderr).toContain('--tools');
    // A bad --user-data-dir (here: a file, not a folder) is refused at start, never at first session.
    const byPath = runCli(['--user-data-dir', fileURLToPath(import.meta.url)]);
    expect(byPath.status).toBe(2);
    expect(byPath.stderr).toContain('--user-data-dir');
    expect(byPath.stderr).not.toContain(fileURLToPath(import.meta.url));
    const unknown = runCli(['--frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--frobnicate');
    expect(byEnv.stdout).toBe('');
  });

  it('prints --help, --help-all and --version', () => {
    const help = runCli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--doctor');
    expect(help.stdout.split('\n').slice(0, 10).join('\n')).toContain('Shell commands');
    expect(help.stdout).not.toContain('BROWSERMESH_MAX_SESSIONS');
    const all = runCli(['--help-all']);
    expect(all.status).toBe(0);
    expect(all.stdout).toContain('BROWSERMESH_MAX_SESSIONS');
    expect(runCli(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('--doctor passes here and fails clearly when no browser is found', () => {
    const ok = runCli(['--doctor'], baseEnv({ BROWSERMESH_DATA_DIR: '/tmp/bm-doctor-e2e' }));
    expect(ok.stdout).toContain('All checks passed');
    expect(ok.status).toBe(0);
    const missing = runCli(
      ['--doctor'],
      baseEnv({
        BROWSERMESH_EXECUTABLE_PATH: '/nonexistent/chromium',
        BROWSERMESH_DATA_DIR: '/tmp/bm-doctor-e2e',
      }),
    );
    expect(missing.status).toBe(1);
    // A system Chromium exists here: the wrong path is named, and the one found instead.
    expect(missing.stdout).toMatch(/FAIL chromium: the given executable path \/nonexistent\/chromium/);
    expect(missing.stdout).toContain('another Chromium was found');
  });
});
