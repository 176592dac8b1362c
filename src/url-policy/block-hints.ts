import type { BlockReason } from './policy.js';

const OPERATOR = 'The server operator decides which hosts are reachable';

/**
 * What to do about a refused destination, naming the setting that decides it: a newcomer whose
 * first navigation to a local dev server is refused in HTTP mode learns the switch at once.
 */
const HINTS: Record<BlockReason, string> = {
  loopback: `${OPERATOR}: loopback and private addresses are refused (by default in HTTP mode); --block-private-network off (BROWSERMESH_BLOCK_PRIVATE_NETWORK=off) allows them. Otherwise choose another URL.`,
  private_network: `${OPERATOR}: loopback and private addresses are refused (by default in HTTP mode); --block-private-network off (BROWSERMESH_BLOCK_PRIVATE_NETWORK=off) allows them. Otherwise choose another URL.`,
  link_local: `${OPERATOR}: link-local, metadata and reserved addresses are refused; --no-block-link-local (BROWSERMESH_BLOCK_LINK_LOCAL=false) allows them. Otherwise choose another URL.`,
  metadata: `${OPERATOR}: cloud metadata addresses are refused; choose another URL.`,
  unspecified: `${OPERATOR}: 0.0.0.0 and :: are refused; use 127.0.0.1 or the host's name instead.`,
  reserved: `${OPERATOR}: reserved addresses are refused; --no-block-link-local (BROWSERMESH_BLOCK_LINK_LOCAL=false) allows them. Otherwise choose another URL.`,
  blocked_origin: `${OPERATOR}: this host is listed in --blocked-origins (BROWSERMESH_BLOCKED_ORIGINS); choose another URL.`,
  not_in_allowed_origins: `${OPERATOR}: only the hosts in --allowed-origins (BROWSERMESH_ALLOWED_ORIGINS) are reachable; choose one of them.`,
  blocked_address: `${OPERATOR}: this address is in BROWSERMESH_BLOCKED_ADDRESSES; choose another URL.`,
  unresolvable: `${OPERATOR}: the host name could not be resolved to an address; check the URL.`,
};

export function blockHint(reason: BlockReason): string {
  return HINTS[reason];
}
