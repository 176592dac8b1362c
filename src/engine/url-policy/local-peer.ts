import { readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import type { Socket } from 'node:net';

/**
 * Who is at the other end of a loopback connection: the user id the kernel's socket table gives the
 * peer's socket (Linux `/proc/net/tcp`). A guard listener on loopback admits only this process's own
 * user, so another local user cannot use a session's guard (docs/security.md, "The shell daemon and
 * other local users"). Chromium speaks SOCKS5 without authentication, so the kernel's word is the
 * credential.
 */

/**
 * The peer's user id; `null` when the table has no such connection (it closed meanwhile); undefined
 * where there is no table to read (not Linux) or the connection is not IPv4.
 */
export async function peerUid(socket: Socket): Promise<number | null | undefined> {
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
    if (fields[1] === local && fields[2] === remote) return Number(fields[7]);
  }
  return null;
}

/** Whether the peer runs as this process's user (always, where user ids cannot be read). */
export async function sameUser(socket: Socket): Promise<boolean> {
  const own = process.getuid?.();
  if (own === undefined) return true;
  const uid = await peerUid(socket);
  return uid === undefined || uid === own;
}

/** An IPv4 address (or its IPv4-mapped IPv6 form) as the table writes it: 4 bytes in host order. */
function ipv4Hex(address: string | undefined): string | undefined {
  const match = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/i.exec(address ?? '');
  if (!match) return undefined;
  const bytes = match.slice(1, 5).map((part) => Number(part).toString(16).padStart(2, '0').toUpperCase());
  return (endianness() === 'LE' ? bytes.reverse() : bytes).join('');
}

const portHex = (port: number): string => port.toString(16).padStart(4, '0').toUpperCase();
