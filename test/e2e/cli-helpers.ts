import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM } from '../helpers/harness.js';

export const CLI = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));

/** What each file of the CLI's bundle holds (scripts/bundle-cli.mjs writes it at build time). */
export const BUNDLE_CHUNKS = fileURLToPath(new URL('../../dist/bundle/chunks.json', import.meta.url));

let chunks: Record<string, { modules: string[] }> | undefined;

/**
 * The built modules (`config/load.js`) a file the CLI loaded stands for: a file of dist/bundle/ for
 * every module it holds, another file of dist/ for itself; anything else for its whole URL.
 */
export function modulesOf(url: string): string[] {
  const chunk = /\/dist\/bundle\/([^/]+\.js)$/.exec(url)?.[1];
  if (chunk === undefined) return [/\/dist\/(.+)$/.exec(url)?.[1] ?? url];
  chunks ??= JSON.parse(readFileSync(BUNDLE_CHUNKS, 'utf8')) as Record<string, { modules: string[] }>;
  const held = chunks[chunk];
  if (held === undefined) throw new Error(`${chunk} is not in ${BUNDLE_CHUNKS}: rebuild (npm run build)`);
  return held.modules.map((module) => `${module}.js`);
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI to completion with a clean environment plus `env`. */
export function runCli(args: string[], env: Record<string, string> = {}): RunResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    BROWSERMESH_EXECUTABLE_PATH: CHROMIUM,
    BROWSERMESH_LOG_LEVEL: 'debug',
    ...extra,
  };
}

/** All descendants of a process (children, grandchildren, …) from /proc. */
export function descendants(rootPid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = parents.get(ppid) ?? [];
      list.push(Number(entry));
      parents.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const walk = (pid: number): void => {
    for (const child of parents.get(pid) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(rootPid);
  return out;
}

export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) Z /.test(stat); // a zombie has exited
  } catch {
    return false;
  }
}

/** Polls a condition until it holds or the bound passes. */
export async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

export { spawn };
