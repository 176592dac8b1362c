import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createConnection, type Server } from 'node:net';
import { untrustedDaemon } from './daemon-trust.cjs';

/**
 * How a daemon takes its data directory before it starts anything (docs/cli.md, "The daemon"): the
 * socket is the lock. Of two daemons started at once exactly one binds; the other finds it answering
 * and exits before it has launched a browser. A socket nobody answers (a crashed daemon's) is
 * replaced. The whole claim (bind and listen, or find the socket dead and replace it) happens under a
 * short lock file: a socket is bound before it listens, and a starter descheduled between the two
 * (a loaded machine) left a socket that refused connections for a moment, which another starter
 * took for a crashed daemon's, removed and bound again, and two daemons served.
 */

/** The daemon's private folder: created 0700, and refused (the reason) unless it is this user's alone. */
export function privateFolder(dir: string, socket: string): string | undefined {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const untrusted = untrustedDaemon(dir, socket);
  if (untrusted === undefined) chmodSync(dir, 0o700);
  return untrusted;
}

/** How often a starter looks again at a lock another one holds, and how long it waits at most. */
const LOCK_POLL_MS = 10;
const LOCK_WAIT_MS = 10_000;
/** A lock file with no pid in it yet is being written; one still without after this, never will be. */
const LOCK_UNWRITTEN_MS = 5_000;

/** Binds `server` on the socket (mode 0600 from the start): true, or false when another daemon has it. */
export async function claimSocket(server: Server, socketPath: string): Promise<boolean> {
  const lock = `${socketPath}.lock`;
  // Another starter has held the claim for LOCK_WAIT_MS: it serves, or will; this one is not needed.
  if (!(await takeLock(lock))) return false;
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await listenOn(server, socketPath);
      if (error === undefined) {
        chmodSync(socketPath, 0o600);
        return true;
      }
      if (error.code !== 'EADDRINUSE') throw error;
      if (await answers(socketPath)) return false;
      // Nobody answers, and no starter is between its bind and its listen (that one holds the lock).
      rmSync(socketPath, { force: true });
    }
    return false;
  } finally {
    rmSync(lock, { force: true });
  }
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

/** Creates the lock file with this process's pid; false when another live starter holds it too long. */
async function takeLock(lock: string): Promise<boolean> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (abandoned(lock)) rmSync(lock, { force: true });
      else if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      continue;
    }
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  }
}

/**
 * A lock whose holder died while holding it (it is held for milliseconds by a live one). Two starters
 * that find the same abandoned lock can both remove it, and the second may remove the lock the first
 * has just made: that needs a starter to have died inside its claim, and is not guarded against.
 */
function abandoned(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - statSync(lock).mtimeMs > LOCK_UNWRITTEN_MS;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
