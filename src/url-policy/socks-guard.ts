import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { BlockReason, UrlPolicy } from './policy.js';
import { BlockMemory } from './block-memory.js';
import { PeerGate } from './peer-gate.js';
import { heldByTree, sameUser } from './local-peer.js';

export interface GuardProxy {
  /** `socks5://HOST:PORT` (127.0.0.1 unless told otherwise), for the browser's proxy setting. */
  server: string;
  /** What the guard has seen: CONNECT requests it judged, and connections refused by their peer. */
  stats(): GuardStats;
  /** The most recent refusal for host:port, if any within the last minute. */
  blockedReason(host: string, port: number): BlockReason | undefined;
  /** The latest refusal at or after `sinceMs`. */
  blockedSince(sinceMs: number): BlockReason | undefined;
  /**
   * From now on a loopback listener admits only connections held by the process tree of the browser
   * whose main process is `pid` (the one this process launched), rather than any of this user's.
   */
  admitBrowser(pid: number | Promise<number | undefined>): void;
  close(): Promise<void>;
}

export interface GuardStats {
  /** CONNECT requests the policy judged (allowed or refused). */
  connects: number;
  /** Connections closed unheard because they did not come from an admitted peer (or another user's). */
  refusedPeers: number;
}

export interface GuardListenOptions {
  /** The address to listen on; 127.0.0.1 by default (a browser on this machine). */
  host?: string;
  /**
   * Only these peers may use the listener (a Grid node's browser); unset = the local browser: only
   * its process tree once it is known (admitBrowser), else processes of this user (local-peer.ts).
   */
  peers?: PeerGate;
}

/** A browser that has not finished the SOCKS handshake by then is not a browser. */
const HANDSHAKE_MS = 10_000;

/**
 * A SOCKS5 proxy on loopback that one browser context sends all its traffic through: navigations,
 * every redirect hop, subresources, popups, workers, WebSockets. Chromium sends host names (it does
 * not resolve them itself behind a SOCKS5 proxy), so the policy checks the name, resolves it here,
 * checks every address, and connects to exactly the address it checked.
 */
export async function startGuardProxy(
  policy: UrlPolicy,
  options: GuardListenOptions = {},
): Promise<GuardProxy> {
  const memory = new BlockMemory();
  const sockets = new Set<Socket>();
  const stats: GuardStats = { connects: 0, refusedPeers: 0 };
  const local: LocalPeers = {};
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(HANDSHAKE_MS, () => socket.destroy());
    void admitted(socket, options.peers ?? local, stats)
      .then((ok) => (ok ? handshake(socket, policy, memory, stats) : undefined))
      .catch(() => socket.destroy());
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server: `socks5://${host.includes(':') ? `[${host}]` : host}:${port}`,
    stats: () => ({ ...stats }),
    blockedReason: (host, targetPort) => memory.blockedReason(host, targetPort),
    blockedSince: (sinceMs) => memory.blockedSince(sinceMs),
    admitBrowser: (pid) => {
      local.browserPid = pid;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Reads exactly `n` bytes (the handshake is tiny; anything pipelined after it is kept). */
function reader(socket: Socket): (n: number) => Promise<Buffer> {
  let buffered = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  const onData = (chunk: Buffer): void => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting?.();
  };
  socket.on('data', onData);
  const read = async (n: number): Promise<Buffer> => {
    while (buffered.length < n) {
      if (socket.destroyed) throw new Error('closed');
      await new Promise<void>((resolve) => {
        waiting = resolve;
        socket.once('close', resolve);
      });
    }
    const out = buffered.subarray(0, n);
    buffered = buffered.subarray(n);
    return out;
  };
  read.release = (): Buffer => {
    socket.off('data', onData);
    return buffered;
  };
  return read;
}

const REPLY_OK = 0x00;
const REPLY_NOT_ALLOWED = 0x02;
const REPLY_HOST_UNREACHABLE = 0x04;
const REPLY_REFUSED = 0x05;
const REPLY_COMMAND = 0x07;
const REPLY_ADDRESS_TYPE = 0x08;

/** Who may use a loopback listener: the launched browser's process tree once known, else this user. */
interface LocalPeers {
  /** Set before the browser's first connection; a pending one is awaited (undefined: this user). */
  browserPid?: number | Promise<number | undefined>;
}

/** Whether the peer may speak at all; a refused one is closed before a byte is read, and nothing logged. */
async function admitted(socket: Socket, peers: PeerGate | LocalPeers, stats: GuardStats): Promise<boolean> {
  const ok =
    peers instanceof PeerGate
      ? await peers.allows(socket.remoteAddress, HANDSHAKE_MS)
      : await localPeer(socket, await peers.browserPid);
  if (ok) return true;
  stats.refusedPeers++;
  socket.destroy();
  return false;
}

function localPeer(socket: Socket, browserPid: number | undefined): Promise<boolean> {
  return browserPid !== undefined ? heldByTree(socket, browserPid) : sameUser(socket);
}

async function handshake(
  socket: Socket,
  policy: UrlPolicy,
  memory: BlockMemory,
  stats: GuardStats,
): Promise<void> {
  const read = reader(socket) as ((n: number) => Promise<Buffer>) & { release(): Buffer };
  const [version, methods = 0] = await read(2);
  if (version !== 5) return void socket.destroy();
  await read(methods);
  // No SOCKS authentication (Chromium cannot send any): the listener is per session, and is either
  // on loopback for its own browser's processes only (local-peer.ts) or admits only the session's Grid node
  // (PeerGate).
  socket.write(Buffer.from([5, 0]));
  const [, command, , addressType] = await read(4);
  const host = await readAddress(read, addressType);
  const port = (await read(2)).readUInt16BE(0);
  if (command !== 1) return reply(socket, REPLY_COMMAND);
  if (host === undefined) return reply(socket, REPLY_ADDRESS_TYPE);
  stats.connects++;
  const verdict = await policy.check(host, port);
  if (!verdict.allowed) {
    memory.remember(host, port, verdict.reason);
    return reply(socket, verdict.reason === 'unresolvable' ? REPLY_HOST_UNREACHABLE : REPLY_NOT_ALLOWED);
  }
  const upstream = connect({ host: verdict.address ?? host, port });
  upstream.once('error', () => reply(socket, REPLY_REFUSED));
  upstream.once('connect', () => {
    upstream.removeAllListeners('error');
    upstream.on('error', () => socket.destroy());
    socket.setTimeout(0);
    socket.write(Buffer.from([5, REPLY_OK, 0, 1, 0, 0, 0, 0, 0, 0]));
    const early = read.release();
    if (early.length > 0) upstream.write(early);
    socket.pipe(upstream);
    upstream.pipe(socket);
    socket.once('close', () => upstream.destroy());
    upstream.once('close', () => socket.destroy());
  });
}

async function readAddress(
  read: (n: number) => Promise<Buffer>,
  addressType: number | undefined,
): Promise<string | undefined> {
  if (addressType === 1) return [...(await read(4))].join('.');
  if (addressType === 3) {
    const [length = 0] = await read(1);
    return (await read(length)).toString('latin1');
  }
  if (addressType === 4) {
    const bytes = await read(16);
    const groups: string[] = [];
    for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
    return groups.join(':');
  }
  return undefined;
}

function reply(socket: Socket, code: number): void {
  socket.end(Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]));
}
