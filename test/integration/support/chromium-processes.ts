import { execFileSync } from 'node:child_process';

/** Chromium processes started by this test worker (each test file runs in its own process). */
export function chromiumChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm !== undefined && /chrom/i.test(comm))
    .map(([pid]) => Number(pid));
}

/** SIGKILLs every Chromium this worker started; returns how many. */
export function killChromium(): number {
  const pids = chromiumChildren();
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  return pids.length;
}
