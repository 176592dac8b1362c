import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answers, claimSocket } from './daemon-claim.js';

// The daemon's claim on its socket (docs/cli.md, "The daemon"): bind and listen, or find the socket
// dead and replace it, only while holding the claim lock, so no starter can take another's socket,
// bound but not yet listening, for a dead daemon's. The two "while it holds the lock" cases watch
// for a short while that nothing happens: a claim that did not wait binds within milliseconds.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function paths(): { socket: string; lock: string } {
  const socket = join(mkdtempSync(join(tmpdir(), 'bm-claim-')), 'daemon.sock');
  return { socket, lock: `${socket}.lock` };
}

function server(): Server {
  const made = createServer((socket) => socket.end());
  servers.push(made);
  return made;
}

/** A pid that no live process holds: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

/**
 * A claim started while another live starter (this process's pid stands for it) holds the lock, and
 * after a short look, whether it is still waiting.
 */
async function claimUnderHeldLock(
  socket: string,
  lock: string,
): Promise<{ claim: Promise<boolean>; waiting: boolean }> {
  writeFileSync(lock, `${process.pid}\n`);
  let settled = false;
  const claim = claimSocket(server(), socket).finally(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 150));
  return { claim, waiting: !settled };
}

describe('claimSocket', () => {
  it('binds, listens and leaves no lock behind', async () => {
    const { socket, lock } = paths();
    expect(await claimSocket(server(), socket)).toBe(true);
    expect(await answers(socket)).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('loses to a daemon that answers, without touching its socket', async () => {
    const { socket, lock } = paths();
    expect(await claimSocket(server(), socket)).toBe(true);
    expect(await claimSocket(server(), socket)).toBe(false);
    expect(await answers(socket)).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('replaces a socket nobody answers (a crashed daemon left it)', async () => {
    const { socket } = paths();
    writeFileSync(socket, ''); // a path that exists and refuses connections, as a dead socket does
    expect(await answers(socket)).toBe(false);
    expect(await claimSocket(server(), socket)).toBe(true);
    expect(await answers(socket)).toBe(true);
  });

  it('does not bind, nor remove a refusing socket, while another live starter holds the lock', async () => {
    const { socket, lock } = paths();
    // Another starter is between its bind and its listen: its socket is left alone while it holds the lock.
    writeFileSync(socket, '');
    const { claim, waiting } = await claimUnderHeldLock(socket, lock);
    expect(waiting).toBe(true);
    expect(existsSync(socket)).toBe(true);
    expect(await answers(socket)).toBe(false);
    // It listens and lets go: the waiting claim finds it answering and loses.
    rmSync(socket);
    const first = server();
    await new Promise<void>((resolve) => first.listen(socket, resolve));
    rmSync(lock);
    expect(await claim).toBe(false);
    expect(await answers(socket)).toBe(true);
  });

  it('waits for the lock on a free path, then binds', async () => {
    const { socket, lock } = paths();
    const { claim, waiting } = await claimUnderHeldLock(socket, lock);
    expect(waiting).toBe(true);
    expect(existsSync(socket)).toBe(false);
    rmSync(lock);
    expect(await claim).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock whose holder died, and one never written that is old', async () => {
    const dead = paths();
    writeFileSync(dead.lock, `${deadPid()}\n`);
    expect(await claimSocket(server(), dead.socket)).toBe(true);
    const unwritten = paths();
    writeFileSync(unwritten.lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(unwritten.lock, old, old);
    expect(await claimSocket(server(), unwritten.socket)).toBe(true);
  });
});
