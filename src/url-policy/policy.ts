import { lookup } from 'node:dns/promises';
import {
  classifyAddress,
  inRange,
  normalizeHost,
  parseIp,
  parseRange,
  type AddressClass,
  type AddressRange,
} from './address.js';
export { normalizeHost } from './address.js';
import { matchesOrigin, parseOriginPattern, type OriginPattern } from './origin-pattern.js';

/** Why a destination was refused; stable strings, safe to show (they never quote the URL). */
export type BlockReason =
  | 'blocked_origin'
  | 'not_in_allowed_origins'
  | 'link_local'
  | 'metadata'
  | 'private_network'
  | 'loopback'
  | 'unspecified'
  | 'reserved'
  | 'blocked_address'
  | 'unresolvable';

export interface UrlPolicyOptions {
  /** Host patterns that may be reached; empty = any host (subject to the other rules). */
  allowedOrigins: readonly string[];
  /** Host patterns never reached (wins over allowedOrigins). */
  blockedOrigins: readonly string[];
  /** Refuse link-local, metadata, unspecified and reserved addresses. */
  blockLinkLocal: boolean;
  /** Refuse loopback and private ranges (hosts listed in allowedOrigins excepted). */
  blockPrivate: boolean;
  /** Extra CIDR ranges always refused (operators, and tests marking a loopback alias as blocked). */
  blockedAddresses: readonly string[];
}

export type Verdict =
  { allowed: true; address: string | undefined } | { allowed: false; reason: BlockReason };

const CLASS_REASON: Record<Exclude<AddressClass, 'public'>, BlockReason> = {
  loopback: 'loopback',
  private: 'private_network',
  linkLocal: 'link_local',
  metadata: 'metadata',
  unspecified: 'unspecified',
  reserved: 'reserved',
};

/**
 * The URL policy: origin patterns first, then the addresses the host resolves to. Every resolved
 * address must pass (a name that resolves to one public and one private address is refused), and
 * the caller connects to the address that was checked, so a DNS answer that changes between check
 * and connect (rebinding) cannot slip through.
 */
export class UrlPolicy {
  private readonly allowed: OriginPattern[];
  private readonly blocked: OriginPattern[];
  private readonly ranges: AddressRange[];

  constructor(readonly options: UrlPolicyOptions) {
    this.allowed = options.allowedOrigins.map(parseOriginPattern);
    this.blocked = options.blockedOrigins.map(parseOriginPattern);
    this.ranges = options.blockedAddresses.map((cidr) => {
      const range = parseRange(cidr);
      if (!range) throw new Error('blockedAddresses: not a CIDR range');
      return range;
    });
  }

  /** Whether anything at all can be refused (when not, no guard is needed). */
  get active(): boolean {
    const o = this.options;
    return (
      o.blockLinkLocal || o.blockPrivate || this.allowed.length + this.blocked.length + this.ranges.length > 0
    );
  }

  /** Checks host:port by name only (no DNS): origin patterns, and literal IP hosts. */
  checkName(host: string, port: number, scheme?: string): Verdict {
    const name = normalizeHost(host);
    if (this.blocked.some((p) => matchesOrigin(p, name, port, scheme))) return deny('blocked_origin');
    if (this.allowed.length > 0 && !this.isListed(name, port, scheme)) return deny('not_in_allowed_origins');
    const ip = parseIp(name);
    return ip ? this.checkAddress(ip.text, name, port) : { allowed: true, address: undefined };
  }

  /** The full check: by name, then every address the name resolves to. */
  async check(host: string, port: number, scheme?: string): Promise<Verdict> {
    const byName = this.checkName(host, port, scheme);
    if (!byName.allowed || byName.address !== undefined) return byName;
    const name = normalizeHost(host);
    let addresses: string[];
    try {
      addresses = (await lookup(name, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      return deny('unresolvable');
    }
    if (addresses.length === 0) return deny('unresolvable');
    for (const address of addresses) {
      // An address listed in --blocked-origins is blocked under any name that resolves to it.
      const literal = parseIp(address)?.text ?? address;
      if (this.blocked.some((p) => matchesOrigin(p, literal, port, scheme))) return deny('blocked_origin');
      const verdict = this.checkAddress(address, name, port);
      if (!verdict.allowed) return verdict;
    }
    return { allowed: true, address: addresses[0] };
  }

  /** Checks a URL (http, https, ws, wss); other schemes pass untouched (they reach no network host). */
  async checkUrl(url: string): Promise<Verdict> {
    const parsed = new URL(url);
    const port = Number(parsed.port) || defaultPort(parsed.protocol);
    if (port === 0) return { allowed: true, address: undefined };
    return this.check(parsed.hostname, port, parsed.protocol.replace(':', ''));
  }

  private checkAddress(address: string, name: string, port: number): Verdict {
    const ip = parseIp(address);
    if (!ip) return deny('unresolvable');
    if (this.ranges.some((range) => inRange(ip, range))) return deny('blocked_address');
    const cls = classifyAddress(ip);
    if (cls === 'public') return { allowed: true, address: ip.text };
    if (cls === 'loopback' || cls === 'private') {
      // A host the operator listed by name is trusted even on a private address.
      if (this.options.blockPrivate && !this.isListed(name, port)) return deny(CLASS_REASON[cls]);
      return { allowed: true, address: ip.text };
    }
    // 0.0.0.0 (and ::) reach this host's own loopback services on Linux: the private-network block
    // refuses them even with link-local blocking off.
    const unspecifiedAsLoopback = cls === 'unspecified' && this.options.blockPrivate;
    return this.options.blockLinkLocal || unspecifiedAsLoopback
      ? deny(CLASS_REASON[cls])
      : { allowed: true, address: ip.text };
  }

  private isListed(name: string, port: number, scheme?: string): boolean {
    return this.allowed.some((p) => matchesOrigin(p, name, port, scheme));
  }
}

function deny(reason: BlockReason): Verdict {
  return { allowed: false, reason };
}

export function defaultPort(protocol: string): number {
  if (protocol === 'http:' || protocol === 'ws:') return 80;
  if (protocol === 'https:' || protocol === 'wss:') return 443;
  return 0;
}
