// Process-tree CPU and memory from /proc (Linux). A server's cost is its own process plus every
// descendant (Chromium's browser, zygotes, renderers, GPU and utility processes).
//
// Memory is PSS (proportional set size, /proc/<pid>/smaps_rollup): a page shared by k processes
// counts 1/k in each, so summing PSS over processes gives the memory they really take together.
// Summing RSS would count Chromium's shared pages once per process and mislead.
//
// CPU is utime+stime plus cutime+cstime (children that already exited and were reaped), in seconds.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

let clockTicks;
function ticksPerSecond() {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** Whether /proc can be read the way this module needs (Linux only). */
export function procAvailable() {
  try {
    readFileSync('/proc/self/stat', 'utf8');
    return true;
  } catch {
    return false;
  }
}

/** Parses /proc/<pid>/stat; the comm field may contain spaces and parentheses, so split after the last ')'. */
function readStat(pid) {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = raw.lastIndexOf(')');
    const fields = raw.slice(close + 2).split(' ');
    // fields[0] is field 3 (state); field N is fields[N - 3].
    return {
      pid,
      comm: raw.slice(raw.indexOf('(') + 1, close),
      ppid: Number(fields[1]),
      cpuTicks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
      startTime: Number(fields[19]),
    };
  } catch {
    return undefined;
  }
}

function allStats() {
  const stats = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) stats.set(stat.pid, stat);
  }
  return stats;
}

/** The root and every live descendant, as stat records. */
function treeStats(rootPid) {
  const stats = allStats();
  const children = new Map();
  for (const stat of stats.values()) {
    const list = children.get(stat.ppid) ?? [];
    list.push(stat);
    children.set(stat.ppid, list);
  }
  const root = stats.get(rootPid);
  if (!root) return [];
  const out = [root];
  for (let i = 0; i < out.length && i < 10_000; i++) out.push(...(children.get(out[i].pid) ?? []));
  return out;
}

/** Pids of a live process tree (root first). */
export function treePids(rootPid) {
  return treeStats(rootPid).map((s) => ({ pid: s.pid, startTime: s.startTime }));
}

/** Live direct children of a process, as { pid, comm, startTime }. */
export function childProcesses(parentPid) {
  return [...allStats().values()]
    .filter((s) => s.ppid === parentPid)
    .map((s) => ({ pid: s.pid, comm: s.comm, startTime: s.startTime }));
}

/** CPU seconds used so far by a process tree (live processes plus reaped children). */
export function treeCpuSeconds(rootPid) {
  const ticks = treeStats(rootPid).reduce((sum, s) => sum + s.cpuTicks, 0);
  return ticks / ticksPerSecond();
}

function pssKiB(pid) {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Summed PSS of a process tree, in MiB, and how many processes it has. */
export function treePssMiB(rootPid) {
  const stats = treeStats(rootPid);
  const kib = stats.reduce((sum, s) => sum + pssKiB(s.pid), 0);
  return { mib: kib / 1024, processes: stats.length };
}

/**
 * Ends processes this harness started (recorded by pid and start time, so a reused pid is never
 * touched): SIGTERM to any still alive after a grace period, then SIGKILL.
 */
export async function endTree(recorded, graceMs = 3000) {
  const alive = () => recorded.filter(({ pid, startTime }) => readStat(pid)?.startTime === startTime);
  for (let waited = 0; waited < graceMs && alive().length > 0; waited += 100) await sleep(100);
  for (const signal of ['SIGTERM', 'SIGKILL']) {
    const left = alive();
    if (left.length === 0) return;
    for (const { pid } of left) {
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
    for (let waited = 0; waited < 2000 && alive().length > 0; waited += 100) await sleep(100);
  }
}
