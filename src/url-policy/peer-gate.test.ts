import { afterEach, describe, expect, it } from 'vitest';
import { greetGuard } from '../../test/helpers/socks-probe.js';
import { normalizePeer, PeerGate, peerAllowed } from './peer-gate.js';
import { UrlPolicy } from './policy.js';
import { startGuardProxy, type GuardProxy } from './socks-guard.js';

// A Selenium Grid browser's guard listener admits only the session's node. Loopback
// aliases play the node (127.0.0.3) and the stranger (127.0.0.1); no other address is used.

describe('the peer address check', () => {
  it('spells an address one way: IPv4-mapped IPv6 as IPv4, IPv6 compressed and lower case', () => {
    expect(normalizePeer('127.0.0.3')).toBe('127.0.0.3');
    expect(normalizePeer('::ffff:127.0.0.3')).toBe('127.0.0.3');
    expect(normalizePeer('::FFFF:7f00:3')).toBe('127.0.0.3');
    expect(normalizePeer('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(normalizePeer('FE80:0:0:0:0:0:0:1')).toBe('fe80::1');
    expect(normalizePeer('node.example')).toBeUndefined();
    expect(normalizePeer('')).toBeUndefined();
    expect(normalizePeer(undefined)).toBeUndefined();
  });

  it('admits only the listed peers, in any spelling, and nothing that is not an address', () => {
    const admitted = new Set(['127.0.0.3', '::1']);
    expect(peerAllowed('127.0.0.3', admitted)).toBe(true);
    expect(peerAllowed('::ffff:127.0.0.3', admitted)).toBe(true);
    expect(peerAllowed('0:0:0:0:0:0:0:1', admitted)).toBe(true);
    expect(peerAllowed('127.0.0.1', admitted)).toBe(false);
    expect(peerAllowed('127.0.0.30', admitted)).toBe(false);
    expect(peerAllowed('::ffff:127.0.0.1', admitted)).toBe(false);
    expect(peerAllowed(undefined, admitted)).toBe(false);
    expect(peerAllowed('127.0.0.3', new Set())).toBe(false);
  });

  it('holds a question until the node is known, and says no when it never is', async () => {
    const gate = new PeerGate();
    const early = gate.allows('127.0.0.3', 60_000);
    gate.admit(['127.0.0.3', 'not-an-address']);
    await expect(early).resolves.toBe(true);
    await expect(gate.allows('127.0.0.1', 60_000)).resolves.toBe(false);
    await expect(new PeerGate().allows('127.0.0.3', 1)).resolves.toBe(false);
  });
});

describe('a guard listener for a Grid node', () => {
  let guard: GuardProxy | undefined;
  afterEach(async () => {
    await guard?.close();
    guard = undefined;
  });

  const greet = greetGuard;

  it('answers the node and closes on any other peer, counting the refusal', async () => {
    const peers = new PeerGate();
    guard = await startGuardProxy(
      new UrlPolicy({
        allowedOrigins: [],
        blockedOrigins: [],
        blockLinkLocal: true,
        blockPrivate: false,
        blockedAddresses: ['127.0.0.2/32'],
      }),
      {
        host: '127.0.0.1',
        peers,
      },
    );
    const port = Number(new URL(guard.server).port);
    expect(guard.server).toBe(`socks5://127.0.0.1:${port}`);
    // A connection that arrives before the Grid named the node waits for it.
    const early = greet(port, '127.0.0.3');
    peers.admit(['127.0.0.3']);
    expect(await early).toBe('0500');
    expect(await greet(port, '127.0.0.1')).toBe('closed');
    expect(guard.stats()).toEqual({ connects: 0, refusedPeers: 1 });
  });
});
