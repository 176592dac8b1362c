/**
 * One Selenium Grid for every integration file that only needs "a Grid" (a browser source, one
 * session at a time): starting Java and the Grid costs each file seconds of both cores. The first file
 * that asks starts it (a lock folder makes that happen once across the workers), the others wait for
 * its address, and the integration project's global setup (grid-global-setup.ts) stops it after the
 * run. Each file still creates and closes its own sessions. Files that count the Grid's sessions, fill
 * its slots or need other Grid settings keep their own `startGrid`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { freePort, gridAt, gridCommand, startGrid, waitUntilReady, type Grid } from './selenium-grid.js';
import { waitFor } from './wait.js';

/** Slots: two files run at a time, each with one session, plus room for a slot the Grid frees late. */
const SHARED_SLOTS = 4;

/** The files in the folder the global setup provides (and reads back at teardown). */
export const sharedGridFiles = (dir: string) => ({
  lock: join(dir, 'lock'),
  pid: join(dir, 'grid.pid'),
  address: join(dir, 'grid.json'),
  log: join(dir, 'grid.log'),
});

/**
 * The shared Grid; `stop()` on it lets go of it without ending it. Outside the integration project
 * (no folder provided) a private Grid is started and `stop()` ends it.
 */
export async function sharedGrid(): Promise<Grid> {
  const dir = inject('sharedGridDir');
  if (!dir) return startGrid({ maxSessions: 1 });
  const files = sharedGridFiles(dir);
  try {
    mkdirSync(files.lock);
  } catch {
    return gridAt(await addressOf(files.address), async () => undefined);
  }
  await launch(files);
  return gridAt(await addressOf(files.address), async () => undefined);
}

/** Starts the Grid in its own process group, which outlives this worker; the teardown ends it. */
async function launch(files: ReturnType<typeof sharedGridFiles>): Promise<void> {
  let result: { url?: string; error?: string };
  try {
    const port = await freePort();
    const { command, args } = gridCommand({ maxSessions: SHARED_SLOTS }, port);
    const log = openSync(files.log, 'a');
    const child = spawn(command, args, { detached: true, stdio: ['ignore', log, log] });
    child.unref();
    writeFileSync(files.pid, String(child.pid ?? ''));
    const url = `http://127.0.0.1:${port}`;
    await waitUntilReady(url, () => child.exitCode);
    result = { url };
  } catch (error) {
    const log = existsSync(files.log) ? readFileSync(files.log, 'utf8').slice(-2000) : '';
    result = { error: `Selenium Grid did not start: ${String(error)}\n${log}` };
  }
  // Written whole, then renamed: a waiting worker never reads half a file.
  writeFileSync(`${files.address}.tmp`, JSON.stringify(result));
  renameSync(`${files.address}.tmp`, files.address);
}

async function addressOf(file: string): Promise<string> {
  // The starter waits up to 90 s for the Grid's /status; a loaded machine gets a margin over that.
  await waitFor(() => existsSync(file), 150_000, 'the shared Selenium Grid to start');
  const result = JSON.parse(readFileSync(file, 'utf8')) as { url?: string; error?: string };
  if (!result.url) throw new Error(result.error ?? 'the shared Selenium Grid did not start');
  return result.url;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the shared Selenium Grid (lock, pid, address, log). */
    sharedGridDir: string;
  }
}
