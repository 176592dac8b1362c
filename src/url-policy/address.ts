import { isIP } from 'node:net';

/**
 * What an IP address reaches, for the URL policy. Every textual form is reduced to one canonical
 * address first (decimal `2130706433`, hex `0x7f000001`, octal `0177.0.0.1`, short `127.1`,
 * IPv4-mapped/compatible/NAT64/6to4 IPv6), so no spelling gets past the classification.
 */
export type AddressClass =
  /** 127.0.0.0/8, ::1 — this machine. */
  | 'loopback'
  /** RFC 1918, carrier-grade NAT, unique-local and site-local IPv6, benchmarking ranges. */
  | 'private'
  /** 169.254.0.0/16, fe80::/10 — the link, where cloud metadata services live. */
  | 'linkLocal'
  /** Known cloud metadata endpoints (169.254.169.254, 100.100.100.200, fd00:ec2::254). */
  | 'metadata'
  /** 0.0.0.0/8, :: — "this host" on Linux, never a real destination. */
  | 'unspecified'
  /** Multicast, broadcast, reserved and documentation ranges. */
  | 'reserved'
  | 'public';

/** A parsed address: 4 bytes (IPv4) or 16 bytes (IPv6). */
export interface IpAddress {
  bytes: Uint8Array;
  /** Canonical text: dotted IPv4, or IPv6 as node prints it. */
  text: string;
}

/**
 * Parses any IP spelling a browser would accept in a URL host (brackets allowed); undefined for a
 * host name. Legacy IPv4 forms are canonicalized the way the WHATWG URL parser (and Chromium) does.
 */
export function parseIp(host: string): IpAddress | undefined {
  // A zone id (fe80::1%eth0) names an interface, not another address: it is dropped.
  const bare = host
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  if (bare === '') return undefined;
  if (isIP(bare) === 4) return fromV4Text(bare);
  if (isIP(bare) === 6) return fromV6Text(bare);
  if (bare.includes(':') || !/^[0-9a-fx.]+$/.test(bare)) return undefined;
  let canonical: string;
  try {
    canonical = new URL(`http://${bare}/`).hostname;
  } catch {
    return undefined;
  }
  return isIP(canonical) === 4 ? fromV4Text(canonical) : undefined;
}

function fromV4Text(text: string): IpAddress {
  const bytes = Uint8Array.from(text.split('.').map(Number));
  return { bytes, text: [...bytes].join('.') };
}

function fromV6Text(text: string): IpAddress | undefined {
  let head = text;
  let v4Tail: number[] = [];
  const lastColon = head.lastIndexOf(':');
  if (head.slice(lastColon + 1).includes('.')) {
    v4Tail = head
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    head = `${head.slice(0, lastColon + 1)}0:0`;
  }
  const [left = '', right] = head.split('::');
  const leftGroups = left === '' ? [] : left.split(':');
  const rightGroups = right === undefined || right === '' ? [] : right.split(':');
  const missing = 8 - leftGroups.length - rightGroups.length;
  if (missing < 0 || (right === undefined && missing !== 0)) return undefined;
  const groups = [...leftGroups, ...Array<string>(missing).fill('0'), ...rightGroups].map((g) =>
    parseInt(g, 16),
  );
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  });
  if (v4Tail.length === 4) bytes.set(v4Tail, 12);
  return { bytes, text: toV6Text(bytes) };
}

function toV6Text(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':');
}

/**
 * A host as policies compare it: lowercase, no brackets or trailing dot, an IP in canonical text and
 * an IPv6 address that carries an IPv4 one as that IPv4 (the same destination either way).
 */
export function normalizeHost(host: string): string {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  const ip = parseIp(bare);
  if (!ip) return bare;
  const v4 = embeddedV4(ip.bytes);
  return v4 ? [...v4].join('.') : ip.text;
}

/** A CIDR range such as `127.0.0.2/32` or `fd00::/8`; undefined when malformed. */
export interface AddressRange {
  base: Uint8Array;
  prefix: number;
}

export function parseRange(text: string): AddressRange | undefined {
  const [addr = '', prefixText] = text.trim().split('/');
  const ip = parseIp(addr);
  if (!ip) return undefined;
  const max = ip.bytes.length * 8;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || !/^\d*$/.test(prefixText ?? ''))
    return undefined;
  return { base: ip.bytes, prefix };
}

/** Whether `ip` (after unwrapping an embedded IPv4) lies in `range`. */
export function inRange(ip: IpAddress, range: AddressRange): boolean {
  const candidates = [ip.bytes, embeddedV4(ip.bytes)].filter((b): b is Uint8Array => b !== undefined);
  return candidates.some((bytes) => bytes.length === range.base.length && prefixMatch(bytes, range));
}

function prefixMatch(bytes: Uint8Array, range: AddressRange): boolean {
  for (let bit = 0; bit < range.prefix; bit++) {
    const i = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((bytes[i] ?? 0) & mask) !== ((range.base[i] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * The IPv4 address an IPv6 address carries and reaches (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d,
 * NAT64 64:ff9b::/96, 6to4 2002:AABB:CCDD::/48); undefined when there is none.
 */
export function embeddedV4(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length !== 16) return undefined;
  const zeros = (from: number, to: number): boolean => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1)) return bytes.slice(12);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12))
    return bytes.slice(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return undefined;
}

const V4_TABLE: ReadonlyArray<[string, AddressClass]> = [
  ['169.254.169.254/32', 'metadata'],
  ['100.100.100.200/32', 'metadata'],
  ['0.0.0.0/8', 'unspecified'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'linkLocal'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['100.64.0.0/10', 'private'],
  ['198.18.0.0/15', 'private'],
  ['192.0.0.0/24', 'private'],
  ['192.0.2.0/24', 'reserved'],
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'reserved'],
  ['240.0.0.0/4', 'reserved'],
];

const V6_TABLE: ReadonlyArray<[string, AddressClass]> = [
  ['fd00:ec2::254/128', 'metadata'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['fe80::/10', 'linkLocal'],
  ['fc00::/7', 'private'],
  ['fec0::/10', 'private'],
  ['ff00::/8', 'reserved'],
  ['100::/64', 'reserved'],
  ['2001:db8::/32', 'reserved'],
  ['2001::/32', 'reserved'],
];

const compile = (table: ReadonlyArray<[string, AddressClass]>): Array<[AddressRange, AddressClass]> =>
  table.map(([cidr, cls]) => [parseRange(cidr) as AddressRange, cls]);
const V4_RANGES = compile(V4_TABLE);
const V6_RANGES = compile(V6_TABLE);

/** The class of an address; an IPv6 address carrying an IPv4 one is classified by that IPv4. */
export function classifyAddress(ip: IpAddress): AddressClass {
  const v4 = ip.bytes.length === 4 ? ip.bytes : embeddedV4(ip.bytes);
  if (v4) return V4_RANGES.find(([range]) => prefixMatch(v4, range))?.[1] ?? 'public';
  return V6_RANGES.find(([range]) => prefixMatch(ip.bytes, range))?.[1] ?? 'public';
}

/**
 * Whether a browser endpoint (a CDP URL) names this machine's loopback: `localhost`, 127.0.0.0/8 or
 * ::1. A browser there can reach a guard proxy on this machine's loopback.
 */
export function isLoopbackEndpoint(endpoint: string): boolean {
  let host: string;
  try {
    host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host.toLowerCase() === 'localhost') return true;
  const ip = parseIp(host);
  return ip !== undefined && classifyAddress(ip) === 'loopback';
}
