import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { NodeGuardProxy } from '../../url-policy/index.js';

/** A host name that does not resolve by then leaves the session unguarded: it is refused instead. */
const NODE_RESOLVE_MS = 5_000;

/**
 * Lets the session's node, and only it, use the session's guard listener: the addresses the node's
 * URI (from the Grid) names. A session whose node cannot be told is refused rather than left with a
 * browser that reaches nothing, or a listener that admits anyone.
 */
export async function admitNode(guard: NodeGuardProxy, nodeUri: string | undefined): Promise<void> {
  const addresses = nodeUri === undefined ? [] : await nodeAddresses(nodeUri);
  if (addresses.length === 0) {
    throw new BrowserMeshError(
      ErrorCodes.BROWSER_ERROR,
      "The Grid did not say which node runs the session's browser",
      {
        details: { reason: 'guard_node_unknown' },
        recoveryHint: 'Use Selenium Grid 4 (its GraphQL endpoint names the node), or unset --guard-host.',
      },
    );
  }
  guard.admit(addresses);
}

/**
 * Lets the machine behind a cdp endpoint, and only it, use the session's guard listener: the
 * addresses the endpoint's host names. The browser's connections must come from one of them (a
 * browser you run on another machine, reached directly); a hosted endpoint whose browsers connect
 * from elsewhere cannot be guarded this way, and its pages fail with a proxy error that says so.
 */
export async function admitEndpointHost(guard: NodeGuardProxy, endpoint: string): Promise<void> {
  const addresses = await nodeAddresses(endpoint);
  if (addresses.length === 0) {
    throw new BrowserMeshError(
      ErrorCodes.BROWSER_ERROR,
      "The cdp endpoint's host did not resolve to an address",
      {
        details: { reason: 'guard_peer_unknown' },
        recoveryHint:
          'Give --cdp-endpoint with an IP address or a name this machine resolves, or unset --guard-host.',
      },
    );
  }
  guard.admit(addresses);
}

/** The IP addresses of the node URI's host (itself, when it is an IP literal); empty if unknown. */
export async function nodeAddresses(nodeUri: string): Promise<string[]> {
  let host: string;
  try {
    host = new URL(nodeUri).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return [];
  }
  if (host === '') return [];
  if (isIP(host) !== 0) return [host];
  const found = await Promise.race([
    lookup(host, { all: true }).catch(() => []),
    new Promise<[]>((resolve) => setTimeout(() => resolve([]), NODE_RESOLVE_MS).unref()),
  ]);
  return found.map((entry) => entry.address);
}
