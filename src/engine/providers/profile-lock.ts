import { readFile, readlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * Chromium's SingletonLock is a symlink to `host-pid`. A live process on this host holds the
 * profile: its pid is returned. A lock left by a crash (dead pid) is Chromium's to clear, so the
 * launch goes ahead.
 */
export async function liveLockHolder(userDataDir: string): Promise<number | undefined> {
  let target: string;
  try {
    target = await readlink(join(userDataDir, 'SingletonLock'));
  } catch {
    return undefined;
  }
  const match = /^(.*)-(\d+)$/.exec(target);
  if (!match || match[1] !== hostname()) return undefined;
  const pid = Number(match[2]);
  return (await processIsLive(pid)) ? pid : undefined;
}

export async function lockedByLiveProcess(userDataDir: string): Promise<boolean> {
  return (await liveLockHolder(userDataDir)) !== undefined;
}

/**
 * Waits until `pid` no longer runs, up to `timeoutMs`: a killed Chromium closes its pipe before
 * the kernel has torn it down, and tearing down a big browser takes a while on a busy machine.
 */
export async function exitedWithin(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await processIsLive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/**
 * Whether `pid` runs. A killed Chromium stays a zombie until its parent reaps it — when that parent
 * is this very process, that waits on the event loop — and signal 0 reaches a zombie, so on Linux
 * its state is read too: a zombie holds nothing.
 */
export async function processIsLive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ...": comm may hold spaces and parentheses, so the state follows the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false; // gone between the two reads
  }
}
