import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, baseEnv, CLI, descendants, waitFor } from './cli-helpers.js';

// A stdio client that closes stdin ends the server (the MCP stdio convention), however early it
// does so: before the server proper has loaded, while the launch begun at its tools/list is still
// under way, or once it was answered. Nothing the server started may outlive it.

const MESSAGES = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
];

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** Starts the server, sends the messages, closes stdin when `closeAfter` says so; the exit and every process seen under it. */
async function runAndClose(
  closeAfter: 'written' | 'listed',
): Promise<{ code: number | null; seen: number[] }> {
  const child = spawn(process.execPath, [CLI], {
    env: baseEnv({ BROWSERMESH_LOG_LEVEL: 'warn' }),
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const pid = child.pid ?? 0;
  const seen = new Set<number>();
  const watch = setInterval(() => descendants(pid).forEach((p) => seen.add(p)), 20);
  cleanup = () => {
    clearInterval(watch);
    // After a failure: what still runs under the server goes with it.
    for (const p of descendants(pid)) process.kill(p, 'SIGKILL');
    child.kill('SIGKILL');
  };
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stdout = '';
  const listed = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/"id":2[,}]/.test(stdout)) resolve();
    }),
  );
  child.stdin.write(MESSAGES.map((message) => `${JSON.stringify(message)}\n`).join(''));
  if (closeAfter === 'listed') await listed;
  child.stdin.end();
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    exited,
    new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), 30_000))),
  ]).finally(() => clearTimeout(timer));
  clearInterval(watch);
  expect(code, 'the server exits once stdin is closed').not.toBe('running');
  return { code: code as number | null, seen: [...seen] };
}

describe.skipIf(process.platform !== 'linux')('a stdio client that closes stdin early', () => {
  it('ends the server when stdin closes right after its first messages were written', async () => {
    const { code, seen } = await runAndClose('written');
    expect(code).toBe(0);
    expect(await waitFor(() => seen.every((p) => !alive(p)), 20_000)).toBe(true);
  });

  it('ends the server and its Chromium when stdin closes once the tools were listed', async () => {
    const { code, seen } = await runAndClose('listed');
    expect(code).toBe(0);
    expect(await waitFor(() => seen.every((p) => !alive(p)), 20_000)).toBe(true);
  });
});
