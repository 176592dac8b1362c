/**
 * The integration project's global setup: a folder for the shared Selenium Grid (shared-grid.ts),
 * which the first file that needs it starts, and the end of that Grid after the run. Nothing starts
 * here: a run without Grid files pays nothing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { sharedGridFiles } from './shared-grid.js';

export default function setup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bm-shared-grid-'));
  project.provide('sharedGridDir', dir);
  const pidFile = sharedGridFiles(dir).pid;
  const groupOf = (): number | undefined => {
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : NaN;
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  };
  // A run that ends without the teardown (interrupted) must not leave the Grid and its browsers behind.
  const killOnExit = (): void => signalGroup(groupOf(), 'SIGKILL');
  process.once('exit', killOnExit);
  return async () => {
    process.removeListener('exit', killOnExit);
    await stopGroup(groupOf());
    rmSync(dir, { recursive: true, force: true });
  };
}

/** SIGTERM lets the Grid end its sessions (and their chromedrivers); SIGKILL if it has not within 15 s. */
async function stopGroup(pid: number | undefined): Promise<void> {
  if (pid === undefined || !alive(pid)) return;
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  signalGroup(pid, 'SIGKILL');
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    // The Grid was started detached: its pid leads a process group holding its chromedrivers.
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Running, not a zombie: the worker that started the Grid may be gone, and no one may reap it. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}
