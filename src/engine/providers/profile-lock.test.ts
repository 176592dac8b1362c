import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitedWithin, liveLockHolder, lockedByLiveProcess, processIsLive } from './profile-lock.js';

const linux = process.platform === 'linux';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function lockedFolder(pid: number, host = hostname()): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bm-lock-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await symlink(`${host}-${pid}`, join(dir, 'SingletonLock'));
  return dir;
}

/**
 * A shell that starts `sleep`, kills it and then becomes `sleep` itself: the killed child stays a
 * zombie, since nothing reaps it while its parent lives. Resolves with both pids.
 */
async function parentOfZombie(): Promise<{ parent: ChildProcess; zombie: number }> {
  const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; kill -9 $!; exec sleep 60'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  cleanups.push(async () => {
    parent.kill('SIGKILL');
  });
  const zombie = await new Promise<number>((resolve, reject) => {
    parent.stdout?.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
    parent.once('error', reject);
  });
  // Wait (on the condition) until the kill has landed.
  for (;;) {
    const stat = await readFile(`/proc/${zombie}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { parent, zombie };
}

describe("the profile's SingletonLock", () => {
  it('is held by a live process on this host, whose pid it names', async () => {
    const dir = await lockedFolder(process.pid);
    expect(await lockedByLiveProcess(dir)).toBe(true);
    expect(await liveLockHolder(dir)).toBe(process.pid);
  });

  it('is stale when its process is gone, is on another host, or is missing', async () => {
    const child = spawn('true');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await lockedByLiveProcess(await lockedFolder(child.pid ?? 0))).toBe(false);
    expect(await lockedByLiveProcess(await lockedFolder(process.pid, `not-${hostname()}`))).toBe(false);
    const empty = await mkdtemp(join(tmpdir(), 'bm-lock-'));
    cleanups.push(() => rm(empty, { recursive: true, force: true }));
    expect(await lockedByLiveProcess(empty)).toBe(false);
  });

  it.runIf(linux)('is stale when its process is a zombie its parent has not reaped yet', async () => {
    const { parent, zombie } = await parentOfZombie();
    expect(await processIsLive(zombie)).toBe(false);
    expect(await processIsLive(parent.pid ?? 0)).toBe(true);
    expect(await lockedByLiveProcess(await lockedFolder(zombie))).toBe(false);
  });

  it('waits for a holder on its way out, and gives up on one that stays', async () => {
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    cleanups.push(async () => {
      sleeper.kill('SIGKILL');
    });
    const pid = sleeper.pid ?? 0;
    expect(await exitedWithin(pid, 50)).toBe(false);
    const waiting = exitedWithin(pid, 60_000);
    sleeper.kill('SIGKILL');
    expect(await waiting).toBe(true);
  });

  it.runIf(linux)('counts a zombie as gone without waiting for its reaping', async () => {
    const { zombie } = await parentOfZombie();
    expect(await exitedWithin(zombie, 0)).toBe(true);
  });
});
