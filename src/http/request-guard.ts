import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * What every HTTP request must pass before it reaches MCP: a Host (and Origin, when a browser sends
 * one) naming this server — a DNS-rebinding page names its own host — and, when configured, the
 * bearer token. Refusals say what was wrong, never what was sent.
 */
export interface RequestPolicy {
  /** Accepted host names (lowercase, IPv6 in brackets), or 'any' for a wildcard bind with no list. */
  hostnames: ReadonlySet<string> | 'any';
  /** SHA-256 of each accepted bearer token and the principal it stands for; empty = no token required. */
  tokens: ReadonlyArray<{ digest: Buffer; principal: string }>;
}

/** The principal of requests when no token is configured (loopback only): every client is the same one. */
export const LOCAL_PRINCIPAL = 'local';
/** The principal of the single BROWSERMESH_HTTP_TOKEN. */
export const DEFAULT_PRINCIPAL = 'default';

export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);

export function createPolicy(options: {
  host: string;
  allowedHosts: readonly string[];
  token: string;
  /** More tokens, each its own principal (the tokens file). */
  tokens?: ReadonlyArray<{ principal: string; token: string }>;
}): RequestPolicy {
  const extra = options.allowedHosts.map(toHostname);
  const wildcard = WILDCARD_BINDS.has(options.host);
  const hostnames =
    wildcard && extra.length === 0
      ? 'any'
      : new Set([...LOOPBACK_NAMES, ...extra, ...(wildcard ? [] : [toHostname(options.host)])]);
  const tokens = [
    ...(options.token === '' ? [] : [{ principal: DEFAULT_PRINCIPAL, token: options.token }]),
    ...(options.tokens ?? []),
  ].map(({ principal, token }) => ({ principal, digest: digest(token) }));
  return { hostnames, tokens };
}

/** The refusal for this request, or the principal it authenticated as. */
export function checkRequest(req: IncomingMessage, policy: RequestPolicy): Refusal | { principal: string } {
  const host = hostnameOf(req.headers.host);
  if (host === undefined || !allowed(policy, host))
    return { status: 403, message: 'Forbidden: Host is not this server' };
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const originHost = originHostname(origin);
    if (originHost === undefined || !allowed(policy, originHost))
      return { status: 403, message: 'Forbidden: Origin not allowed' };
  }
  if (policy.tokens.length === 0) return { principal: LOCAL_PRINCIPAL };
  const principal = principalOf(req.headers.authorization, policy);
  if (principal !== undefined) return { principal };
  return {
    status: 401,
    message: 'Unauthorized: a valid bearer token is required',
    headers: { 'WWW-Authenticate': 'Bearer realm="browsermesh"' },
  };
}

/**
 * Compares digests, not the strings: equal lengths for timingSafeEqual, and the time taken says
 * nothing about how much of a token matched. Every token is compared, whichever matches.
 */
function principalOf(header: string | undefined, policy: RequestPolicy): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const given = digest(match?.[1] ?? '');
  let found: string | undefined;
  for (const entry of policy.tokens) if (timingSafeEqual(given, entry.digest)) found ??= entry.principal;
  return match === null ? undefined : found;
}

export function isRefusal(value: Refusal | { principal: string }): value is Refusal {
  return 'status' in value;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function allowed(policy: RequestPolicy, hostname: string): boolean {
  return policy.hostnames === 'any' || policy.hostnames.has(hostname);
}

function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function originHostname(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : undefined;
  } catch {
    return undefined; // includes the opaque origin "null"
  }
}

function toHostname(host: string): string {
  const bare = host.trim().toLowerCase();
  return bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare;
}

export class BodyTooLarge extends Error {}

/** Reads a request body up to `maxBytes`; past that it stops reading and throws BodyTooLarge. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
