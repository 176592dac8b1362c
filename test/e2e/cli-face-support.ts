import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, CLI, descendants, waitFor } from './cli-helpers.js';
import { CHROMIUM } from '../helpers/harness.js';

/**
 * Shell-face e2e helpers. A file shares one daemon between its tests (`fileShell`: each test ends
 * with every session closed); a test that needs other daemon settings opens its own (`shell`).
 */

export interface Shell {
  dataDir: string;
  home: string;
  env: Record<string, string>;
  /**
   * Runs `browsermesh ARGS` to completion (stdin = `input`). Never spawnSync: the fixture site runs
   * in this process and must keep answering while the command waits.
   */
  bm(args: string[], input?: string): Promise<{ status: number | null; stdout: string; stderr: string }>;
  /** The same, without blocking the test (for commands that must run side by side). */
  bmAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }>;
  daemonPid(): number | undefined;
  /** Stops the daemon (its own command, then its pid and browser if it did not go). */
  cleanup(): Promise<void>;
  /** Closes every session the daemon holds, leaving the daemon and its browser running. */
  closeSessions(): Promise<void>;
}

/**
 * One daemon for a file's tests, started by the first command: `get()` gives the shell,
 * `afterEach(reset)` closes its sessions (each test starts with none), `afterAll(stop)` ends it.
 */
export function fileShell(env: Record<string, string> = {}): {
  get(): Shell;
  reset(): Promise<void>;
  stop(): Promise<void>;
} {
  let current: Shell | undefined;
  return {
    // The daemon keeps its browser between the tests (a grace as long as the idle time).
    get: () => (current ??= shell({ BROWSERMESH_DAEMON_GRACE_MS: '1800000', ...env })),
    reset: async () => current?.closeSessions(),
    stop: async () => current?.cleanup(),
  };
}

export function shell(extraEnv: Record<string, string> = {}): Shell {
  const dataDir = mkdtempSync(join(tmpdir(), 'bm-cli-'));
  const home = mkdtempSync(join(tmpdir(), 'bm-home-'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    BROWSERMESH_DATA_DIR: dataDir,
    BROWSERMESH_EXECUTABLE_PATH: CHROMIUM,
    // The deadline also bounds the browser launch, which a loaded test machine can stretch.
    BROWSERMESH_TIMEOUT_MS: '60000',
    ...extraEnv,
  };
  const pidFile = join(dataDir, 'cli', 'daemon.pid');
  const daemonPid = (): number | undefined =>
    existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : undefined;
  const bm: Shell['bm'] = (args, input) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
      child.stdin.end(input ?? '');
    });
  const bmAsync = bm;
  const cleanup = async (): Promise<void> => {
    const pid = daemonPid();
    const browsers = pid === undefined ? [] : descendants(pid);
    await bm(['daemon', 'stop']);
    if (pid !== undefined && !(await waitFor(() => !alive(pid), 15_000))) process.kill(pid, 'SIGKILL');
    for (const child of browsers) if (alive(child)) process.kill(child, 'SIGKILL');
  };
  const closeSessions = async (): Promise<void> => {
    if (daemonPid() === undefined) return;
    const listed = (await bm(['sessions'])).stdout;
    const names = [...listed.matchAll(/^(\S+) (?:ready|failed|closing)\b/gm)].map((match) => match[1] ?? '');
    await Promise.all(names.map((name) => bm(['sessions', 'close', name])));
  };
  return { dataDir, home, env, bm, bmAsync, daemonPid, cleanup, closeSessions };
}

/** The ref of the first snapshot line with this role and name, e.g. `[button @e8] Add to cart`. */
export function refOf(snapshot: string, role: string, name: string): string {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = new RegExp(`\\[${role} (@e\\d+)[^\\]]*\\] ${escaped}(\\n|$)`).exec(snapshot);
  if (!line?.[1]) throw new Error(`no [${role}] "${name}" in the snapshot:\n${snapshot}`);
  return line[1];
}
