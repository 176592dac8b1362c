import { spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { greetGuard } from '../../test/helpers/socks-probe.js';
import { peerUid } from './local-peer.js';
import { UrlPolicy } from './policy.js';
import { startGuardProxy, type GuardProxy } from './socks-guard.js';

// A session's guard listener on loopback admits only this user's processes (the browser it launched);
// another local user's connection is closed before a byte is answered. The stranger is a child
// process run as `nobody` (possible as root only); every connection stays on 127.0.0.1.

const root = process.getuid?.() === 0;
const linux = process.platform === 'linux';

const greet = (port: number): Promise<string> => greetGuard(port);

/** The same greeting from a process of user `nobody` (65534): what it heard, or 'closed'. */
function greetAsNobody(port: number): Promise<string> {
  const script = `
const s = require('net').connect(${port}, '127.0.0.1', () => s.write(Buffer.from([5, 1, 0])));
let heard = '';
s.on('data', (d) => { heard += d.toString('hex'); s.destroy(); });
s.on('close', () => process.stdout.write(heard || 'closed'));
s.on('error', () => undefined);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], {
      uid: 65534,
      gid: 65534,
      cwd: '/tmp',
      env: {},
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', () => resolve(out));
  });
}

describe.skipIf(!linux)("the kernel's word on a loopback peer", () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    server = undefined;
  });

  it("reads this process's own user id for its own connection", async () => {
    const accepted = new Promise<Socket>((resolve) => {
      server = createServer(resolve).listen(0, '127.0.0.1');
    });
    await new Promise((resolve) => server?.once('listening', resolve));
    const client = connect({ host: '127.0.0.1', port: (server?.address() as AddressInfo).port });
    const socket = await accepted;
    expect(await peerUid(socket)).toBe(process.getuid?.());
    client.destroy();
    socket.destroy();
  });
});

describe.skipIf(!linux)('a local guard listener', () => {
  let guard: GuardProxy | undefined;
  afterEach(async () => {
    await guard?.close();
    guard = undefined;
  });

  it.skipIf(!root)("answers this user's process and closes on another user's, counting it", async () => {
    guard = await loopbackGuard();
    const port = Number(new URL(guard.server).port);
    expect(await greet(port)).toBe('0500');
    expect(await greetAsNobody(port)).toBe('closed');
    expect(guard.stats()).toEqual({ connects: 0, refusedPeers: 1 });
    // The refusal leaves the listener working for its own browser.
    expect(await greet(port)).toBe('0500');
  });

  it("once its browser is known, admits that browser's tree and this process only", async () => {
    guard = await loopbackGuard();
    const port = Number(new URL(guard.server).port);
    const active = guard;
    // The "browser": a child process of this user that greets the guard and reports what it heard;
    // a second child of this user, not under the browser, is refused.
    const browser = greeter(port, (pid) => active.admitBrowser(pid));
    expect(await browser).toBe('0500');
    expect(await greeter(port)).toBe('closed');
    // This process (a context's own API requests come from here) is admitted.
    expect(await greet(port)).toBe('0500');
    expect(guard.stats()).toEqual({ connects: 0, refusedPeers: 1 });
  });

  it("finds the holder a level or two below the browser's main process, as Chromium's network service is", async () => {
    guard = await loopbackGuard();
    const port = Number(new URL(guard.server).port);
    const active = guard;
    // A direct child of the "browser" (the first place looked), then a grandchild (found by the scan
    // of the whole tree), each through its own parent: both admitted; a stranger still is not.
    expect(await greeter(port, (pid) => active.admitBrowser(pid), 1)).toBe('0500');
    expect(await greeter(port, (pid) => active.admitBrowser(pid), 2)).toBe('0500');
    expect(await greeter(port)).toBe('closed');
    expect(guard.stats()).toEqual({ connects: 0, refusedPeers: 1 });
  });
});

/**
 * A child process of this user that greets the guard on `port` (after `before` saw its pid): what it
 * heard in hex, or 'closed'. With `depth`, the greeting comes from that many levels below the child,
 * each level a process that starts the next and passes its output up.
 */
function greeter(port: number, before?: (pid: number) => void, depth = 0): Promise<string> {
  const greeting = `
const s = require('net').connect(${port}, '127.0.0.1', () => s.write(Buffer.from([5, 1, 0])));
let heard = '';
s.on('data', (d) => { heard += d.toString('hex'); s.destroy(); });
s.on('close', () => process.stdout.write(heard || 'closed'));
s.on('error', () => undefined);`;
  let script = greeting;
  for (let level = 0; level < depth; level++) {
    script = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(script)}], { stdio: ['ignore', 'inherit', 'inherit'] });`;
  }
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error('no child process');
  before?.(child.pid);
  let heard = '';
  child.stdout.on('data', (chunk: Buffer) => (heard += chunk.toString()));
  return new Promise((resolve) => child.once('close', () => resolve(heard)));
}

/** A guard listener on 127.0.0.1 whose policy blocks the loopback alias 127.0.0.2. */
function loopbackGuard(): Promise<GuardProxy> {
  return startGuardProxy(
    new UrlPolicy({
      allowedOrigins: [],
      blockedOrigins: [],
      blockLinkLocal: true,
      blockPrivate: false,
      blockedAddresses: ['127.0.0.2/32'],
    }),
  );
}
