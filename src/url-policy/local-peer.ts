import { readdir, readFile, readlink } from 'node:fs/promises';
import { endianness } from 'node:os';
import type { Socket } from 'node:net';

/**
 * Who is at the other end of a loopback connection, in the kernel's words (Linux `/proc`): the user id
 * and the socket inode the socket table gives the peer's socket, and which process holds that socket.
 * A session's guard listener on loopback admits only the browser it launched — a process of its tree
 * that holds the peer socket — so neither another local user nor another process of this user can
 * use a session's guard (docs/security.md, "The shell daemon and other local users"). Chromium speaks
 * SOCKS5 without authentication, so the kernel's word is the credential.
 */

/** The peer socket's row of the table: its owner's user id and its inode. */
interface PeerRow {
  uid: number;
  inode: string;
}

/**
 * The peer's row; `null` when the table has no such connection (it closed meanwhile); undefined
 * where there is no table to read (not Linux) or the connection is not IPv4.
 */
async function peerRow(socket: Socket): Promise<PeerRow | null | undefined> {
  const { remoteAddress, remotePort, localAddress, localPort } = socket;
  if (remotePort === undefined || localPort === undefined) return null;
  const peer = ipv4Hex(remoteAddress);
  const own = ipv4Hex(localAddress);
  if (peer === undefined || own === undefined) return undefined;
  let table: string;
  try {
    table = await readFile('/proc/net/tcp', 'latin1');
  } catch {
    return undefined;
  }
  // The peer's own row: its local address is our remote one, and the other way round.
  const local = `${peer}:${portHex(remotePort)}`;
  const remote = `${own}:${portHex(localPort)}`;
  for (const line of table.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields[1] === local && fields[2] === remote)
      return { uid: Number(fields[7]), inode: fields[9] ?? '0' };
  }
  return null;
}

/**
 * The peer's user id; `null` when the table has no such connection (it closed meanwhile); undefined
 * where there is no table to read (not Linux) or the connection is not IPv4.
 */
export async function peerUid(socket: Socket): Promise<number | null | undefined> {
  const row = await peerRow(socket);
  return row === null || row === undefined ? row : row.uid;
}

/** Whether the peer runs as this process's user (always, where user ids cannot be read). */
export async function sameUser(socket: Socket): Promise<boolean> {
  const own = process.getuid?.();
  if (own === undefined) return true;
  const uid = await peerUid(socket);
  return uid === undefined || uid === own;
}

/** Per browser (its main process id): the process that held its last admitted connection. */
const lastHolder = new Map<number, number>();

/**
 * Whether the peer socket is held by a process of the tree rooted at `rootPid` (a launched browser:
 * its network service dials the guard), or by this process. Tried in the order a holder is likely:
 * the process that held the browser's last admitted connection, the browser's direct children (its
 * network service is one), this process, then the whole tree. Each candidate's descriptors are read
 * at once, not one after another: this runs on the thread that is also loading the server during a
 * cold start, where every sequential read waited for a turn (a first navigation's first connection
 * took 110–180 ms to admit).
 * Refused where the kernel cannot say (no table, not IPv4, another user's socket, a closed connection).
 */
export async function heldByTree(socket: Socket, rootPid: number): Promise<boolean> {
  const row = await peerRow(socket);
  if (row === null || row === undefined || row.inode === '0') return false;
  if (row.uid !== process.getuid?.()) return false;
  const link = `socket:[${row.inode}]`;
  const known = lastHolder.get(rootPid);
  if (known !== undefined && (await holds(known, link)) && (await descends(known, rootPid))) return true;
  const child = await firstHolder(await childrenOf(rootPid), link, known);
  if (child !== undefined && (await descends(child, rootPid))) return remember(rootPid, child);
  // This process too: a context's own API requests (`context.request`) go through its proxy from here.
  if (await holds(process.pid, link)) return true;
  const inTree = await firstHolder(await processTree(rootPid), link, known);
  return inTree === undefined ? false : remember(rootPid, inTree);
}

function remember(rootPid: number, holder: number): true {
  if (lastHolder.size > 64) lastHolder.clear();
  lastHolder.set(rootPid, holder);
  return true;
}

/** The first of `pids` (but `skip`, already tried) that holds `link`, all asked at once. */
async function firstHolder(
  pids: number[],
  link: string,
  skip: number | undefined,
): Promise<number | undefined> {
  const held = await Promise.all(pids.map((pid) => (pid !== skip ? holds(pid, link) : false)));
  return pids[held.indexOf(true)];
}

/**
 * The direct children of `pid`, as its threads' `children` lists give them: may miss a child while the
 * tree changes, or be empty where the kernel has no such list; the whole-tree scan is the fallback.
 */
async function childrenOf(pid: number): Promise<number[]> {
  const threads = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const lists = await Promise.all(
    threads.map((thread) => readFile(`/proc/${pid}/task/${thread}/children`, 'latin1').catch(() => '')),
  );
  const children = new Set(lists.join(' ').split(/\s+/).filter(Boolean).map(Number));
  return [...children].filter((child) => Number.isInteger(child) && child > 1);
}

/**
 * `rootPid` and the processes below it, found by their parent links (a thread's `children` list may
 * miss a child while the tree changes, `proc(5)`); [] once the root is gone.
 */
async function processTree(rootPid: number): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const pids = entries.map(Number).filter((pid) => Number.isInteger(pid) && pid > 1);
  const tree: number[] = [];
  // A batch at a time: each check opens files, and a machine may run thousands of processes.
  for (let start = 0; start < pids.length; start += SCAN_BATCH) {
    const batch = pids.slice(start, start + SCAN_BATCH);
    const below = await Promise.all(batch.map((pid) => descends(pid, rootPid)));
    tree.push(...batch.filter((_, index) => below[index]));
  }
  return tree;
}

/** How many processes the whole-tree scan checks at once. */
const SCAN_BATCH = 64;

/** How far below its main process a browser's process may sit (they are a few levels deep). */
const MAX_DEPTH = 8;

/** Whether `pid` is `rootPid` or below it (parent links, a few steps: a browser's tree is shallow). */
async function descends(pid: number, rootPid: number): Promise<boolean> {
  for (let at = pid, steps = 0; at > 1 && steps < MAX_DEPTH; steps++) {
    if (at === rootPid) return true;
    const stat = await readFile(`/proc/${at}/stat`, 'latin1').catch(() => '');
    // After the command name in parentheses (which may hold spaces): state, then the parent's pid.
    at = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return false;
}

/** Whether process `pid` has a descriptor open on `link` (`socket:[inode]`). */
async function holds(pid: number, link: string): Promise<boolean> {
  let fds: string[];
  try {
    fds = await readdir(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return targets.includes(link);
}

/** An IPv4 address (or its IPv4-mapped IPv6 form) as the table writes it: 4 bytes in host order. */
function ipv4Hex(address: string | undefined): string | undefined {
  const match = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/i.exec(address ?? '');
  if (!match) return undefined;
  const bytes = match.slice(1, 5).map((part) => Number(part).toString(16).padStart(2, '0').toUpperCase());
  return (endianness() === 'LE' ? bytes.reverse() : bytes).join('');
}

const portHex = (port: number): string => port.toString(16).padStart(4, '0').toUpperCase();
