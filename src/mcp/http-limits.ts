/**
 * Limits a shared HTTP server needs beyond authentication: how many MCP clients it serves at once,
 * and how fast one principal may send requests. Refusals are JSON-RPC error bodies with an HTTP
 * status (503 / 429) and a Retry-After, so a well-behaved client backs off.
 */
import type { Refusal } from '../http/request-guard.js';

export interface HttpLimits {
  /** MCP clients (Mcp-Session-Ids) served at once. */
  maxClients: number;
  /** Time to send the request headers (ms); slower connections are closed (408). */
  headersTimeoutMs: number;
  /** Time to send the whole request, body included (ms). */
  bodyTimeoutMs: number;
  /** Requests per minute per principal; 0 = unlimited. */
  ratePerMinute: number;
  /**
   * A client that sent no request for this long (an open GET event stream does not count) is ended
   * and its slot freed, its sessions closed; 0 = never.
   */
  clientIdleMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxClients: 64,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  ratePerMinute: 600,
  clientIdleMs: 300_000,
};

/**
 * A token bucket per principal: `ratePerMinute` tokens refill evenly over a minute and a burst may
 * spend them all at once. Buckets that are full again are dropped, so the map stays small.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>();

  constructor(private readonly ratePerMinute: number) {}

  /** undefined when the request may go on, else the seconds until one more token exists. */
  take(key: string, nowMs = Date.now()): number | undefined {
    if (this.ratePerMinute <= 0) return undefined;
    const perMs = this.ratePerMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.ratePerMinute, atMs: nowMs };
    bucket.tokens = Math.min(this.ratePerMinute, bucket.tokens + (nowMs - bucket.atMs) * perMs);
    bucket.atMs = nowMs;
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    }
    bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 1000) this.prune(nowMs);
    return undefined;
  }

  private prune(nowMs: number): void {
    const perMs = this.ratePerMinute / 60_000;
    for (const [key, bucket] of this.buckets)
      if (bucket.tokens + (nowMs - bucket.atMs) * perMs >= this.ratePerMinute) this.buckets.delete(key);
  }
}

export function tooManyRequests(retryAfterSeconds: number): Refusal & { code: number } {
  return {
    status: 429,
    code: -32000,
    message: 'Too many requests: this client is over its rate limit',
    headers: { 'Retry-After': String(retryAfterSeconds) },
  };
}

export function tooManyClients(limit: number): Refusal & { code: number } {
  return {
    status: 503,
    code: -32000,
    message: `Server busy: at most ${limit} MCP clients at once`,
    headers: { 'Retry-After': '5' },
  };
}
