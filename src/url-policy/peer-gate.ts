import { isIP } from 'node:net';

/**
 * An address as a socket reports it, in one spelling: an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`,
 * how a dual-stack listener sees an IPv4 peer) becomes the IPv4 address, IPv6 is compressed and lower
 * case. Anything that is not an IP literal is undefined (never matched).
 */
export function normalizePeer(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return undefined;
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return canonical;
  const high = parseInt(mapped[1] ?? '0', 16);
  const low = parseInt(mapped[2] ?? '0', 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Whether a connection from `address` is one of the admitted peers (all normalized). */
export function peerAllowed(address: string | undefined, admitted: ReadonlySet<string>): boolean {
  const peer = normalizePeer(address);
  return peer !== undefined && admitted.has(peer);
}

/**
 * Who may use a guard listener that Grid nodes reach: only the node running the session's browser.
 * The node is known once the Grid answers the new-session request, while the browser it starts may
 * connect before that; such a connection waits (bounded) for the answer instead of being let in.
 */
export class PeerGate {
  private admitted: Set<string> | undefined;
  private readonly waiters = new Set<() => void>();

  /** Sets the admitted peers (IP literals; anything else is ignored) and wakes waiting connections. */
  admit(addresses: readonly string[]): void {
    const normalized = addresses.map((address) => normalizePeer(address));
    this.admitted = new Set(normalized.filter((address): address is string => address !== undefined));
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** True once `address` is known to be admitted; false if it is not, or nobody was admitted in time. */
  async allows(address: string | undefined, waitMs: number): Promise<boolean> {
    if (!this.admitted) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, waitMs);
        this.waiters.add(done);
      });
    }
    return this.admitted !== undefined && peerAllowed(address, this.admitted);
  }
}
