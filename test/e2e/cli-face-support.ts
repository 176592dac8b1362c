import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, CLI, descendants, waitFor } from './cli-helpers.js';
import { CHROMIUM } from '../helpers/harness.js';

/** Shell-face e2e helpers: each test gets its own data directory, so its own daemon. */

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
  return { dataDir, home, env, bm, bmAsync, daemonPid, cleanup };
}

/** The ref of the first snapshot line with this role and name, e.g. `[button @e8] Add to cart`. */
export function refOf(snapshot: string, role: string, name: string): string {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = new RegExp(`\\[${role} (@e\\d+)[^\\]]*\\] ${escaped}(\\n|$)`).exec(snapshot);
  if (!line?.[1]) throw new Error(`no [${role}] "${name}" in the snapshot:\n${snapshot}`);
  return line[1];
}
