import { normalizeHost } from './address.js';

/**
 * One `--allowed-origins` / `--blocked-origins` entry: `example.com`, `*.example.com` (subdomains
 * only), `example.com:8080`, `https://example.com` (port 443 implied), `[::1]:3000`, `127.0.0.1`, or
 * `*` (everything). At the network level only host and port are known, so a scheme counts only
 * for its implied port there; browser_navigate also checks the scheme.
 */
export interface OriginPattern {
  /** Lowercase host, IP in canonical form; '' with `wildcard` for `*`. */
  host: string;
  /** `*.host`: any subdomain of host. */
  subdomains: boolean;
  /** `*`: every host. */
  wildcard: boolean;
  /** undefined = any port. */
  port: number | undefined;
  scheme: string | undefined;
}

const PATTERN = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|\*\.[\w.-]+|\[[0-9a-f:.]+\]|[\w.-]+)(?::(\d{1,5}))?\/?$/i;

/** Parses one pattern; throws a message-only Error (config validation names the source). */
export function parseOriginPattern(text: string): OriginPattern {
  const match = PATTERN.exec(text.trim());
  if (!match) throw new Error('not a host pattern');
  const [, schemeText, hostText = '', portText] = match;
  const scheme = schemeText?.toLowerCase();
  if (scheme !== undefined && !['http', 'https', 'ws', 'wss'].includes(scheme))
    throw new Error('scheme must be http, https, ws or wss');
  const explicitPort = portText === undefined ? undefined : Number(portText);
  if (explicitPort !== undefined && (explicitPort < 1 || explicitPort > 65_535)) throw new Error('bad port');
  const impliedPort = scheme === 'https' || scheme === 'wss' ? 443 : scheme === undefined ? undefined : 80;
  const wildcard = hostText === '*';
  const subdomains = hostText.startsWith('*.');
  const rawHost = subdomains ? hostText.slice(2) : wildcard ? '' : hostText;
  const bare = rawHost
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  const host = normalizeHost(bare);
  return { host, subdomains, wildcard, port: explicitPort ?? impliedPort, scheme };
}

/** Whether a normalized host and port (and scheme, when known) match the pattern. */
export function matchesOrigin(pattern: OriginPattern, host: string, port: number, scheme?: string): boolean {
  if (pattern.port !== undefined && pattern.port !== port) return false;
  if (pattern.scheme !== undefined && scheme !== undefined && pattern.scheme !== scheme) return false;
  if (pattern.wildcard) return true;
  if (pattern.subdomains) return host.endsWith(`.${pattern.host}`);
  return host === pattern.host;
}
