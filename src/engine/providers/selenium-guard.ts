import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { NodeGuardProxy } from '../url-policy/index.js';

/** A node name that does not resolve by then leaves the session unguarded: it is refused instead. */
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
        recoveryHint:
          'Use Selenium Grid 4 (its GraphQL endpoint names the node), or unset --selenium-guard-host.',
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
