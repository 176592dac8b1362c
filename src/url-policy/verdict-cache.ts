import { defaultPort, type UrlPolicy, type Verdict } from './policy.js';

export interface Target {
  host: string;
  port: number;
  scheme: string;
}

const VERDICT_TTL_MS = 10_000;
const MAX_VERDICTS = 512;

/** host, port and scheme of a network URL; undefined for data:, blob: and other local schemes. */
export function hostOf(url: string): Target | undefined {
  try {
    const parsed = new URL(url);
    const port = Number(parsed.port) || defaultPort(parsed.protocol);
    if (port === 0) return undefined;
    return { host: parsed.hostname, port, scheme: parsed.protocol.replace(':', '') };
  } catch {
    return undefined;
  }
}

/**
 * Verdicts for a few seconds, so a page's hundred subresources cost one DNS lookup, not a hundred.
 * This machine's DNS is not the browser's (a remote node or an operator's proxy resolves names): a
 * name it cannot resolve is let through, as the remote side's call.
 */
export class VerdictCache {
  private readonly entries = new Map<string, { verdict: Promise<Verdict>; atMs: number }>();

  constructor(private readonly policy: UrlPolicy) {}

  async check(target: Target): Promise<Verdict> {
    const key = `${target.scheme}://${target.host}:${target.port}`;
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && now - cached.atMs < VERDICT_TTL_MS) return cached.verdict;
    const verdict = this.policy
      .check(target.host, target.port, target.scheme)
      .then((v) =>
        !v.allowed && v.reason === 'unresolvable' ? { allowed: true as const, address: undefined } : v,
      );
    this.entries.delete(key);
    this.entries.set(key, { verdict, atMs: now });
    if (this.entries.size > MAX_VERDICTS) this.entries.delete(this.entries.keys().next().value ?? '');
    return verdict;
  }
}
