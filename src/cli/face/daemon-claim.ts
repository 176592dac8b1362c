import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createConnection, type Server } from 'node:net';
import { untrustedDaemon } from './daemon-trust.cjs';

/**
 * How a daemon takes its data directory before it starts anything (docs/cli.md, "The daemon"): the
 * socket is the lock. Binding it is atomic, so of two daemons started at once exactly one binds; the
 * other finds it answering and exits before it has launched a browser. A socket nobody answers (a
 * crashed daemon's) is removed under a short lock file, so two starters cannot remove each other's
 * fresh socket.
 */

/** The daemon's private folder: created 0700, and refused (the reason) unless it is this user's alone. */
export function privateFolder(dir: string, socket: string): string | undefined {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const untrusted = untrustedDaemon(dir, socket);
  if (untrusted === undefined) chmodSync(dir, 0o700);
  return untrusted;
}

const ATTEMPTS = 20;
const LOCK_WAIT_MS = 25;

/** Binds `server` on the socket (mode 0600 from the start): true, or false when another daemon has it. */
export async function claimSocket(server: Server, socketPath: string): Promise<boolean> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const error = await listenOn(server, socketPath);
    if (error === undefined) {
      chmodSync(socketPath, 0o600);
      return true;
    }
    if (error.code !== 'EADDRINUSE') throw error;
    if (await answers(socketPath)) return false;
    await removeStale(socketPath);
  }
  return false;
}

/** Whether a daemon answers on this socket (a live one must not be replaced). */
export function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** One `listen`, its error instead of a throw. The umask makes the socket 0600 when it appears. */
function listenOn(server: Server, socketPath: string): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const failed = (error: NodeJS.ErrnoException): void => resolve(error);
    server.once('error', failed);
    const mask = process.umask(0o177);
    try {
      // Binding happens inside this call (a path needs no lookup): the umask is back right after.
      server.listen(socketPath, () => {
        server.off('error', failed);
        resolve(undefined);
      });
    } finally {
      process.umask(mask);
    }
  });
}

/** Removes a socket nobody answers, checked again under the lock (another starter may have bound it). */
async function removeStale(socketPath: string): Promise<void> {
  const lock = `${socketPath}.lock`;
  let fd: number;
  try {
    fd = openSync(lock, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (holderGone(lock)) rmSync(lock, { force: true });
    await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_MS));
    return;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
    if (!(await answers(socketPath))) rmSync(socketPath, { force: true });
  } finally {
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}

/** A lock whose writer has died (it is held for a few milliseconds by a live one). */
function holderGone(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return false; // being written right now
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
