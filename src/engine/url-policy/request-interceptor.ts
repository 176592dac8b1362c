import type { Browser, BrowserContext, CDPSession } from 'playwright-core';
import { BlockMemory } from './block-memory.js';
import { defaultPort, type UrlPolicy, type Verdict } from './policy.js';

/**
 * The URL policy where no guard proxy can sit in the browser's path: a browser on another machine
 * (cdp, selenium) or an operator proxy. The browser's own CDP Fetch domain is enabled on the
 * browser target, so Chromium pauses every request of every page, frame, popup, worker and service
 * worker, each redirect hop included, until this side answers; a refused one fails with
 * net::ERR_BLOCKED_BY_CLIENT before anything is sent. WebSockets are not Fetch requests: pages'
 * are checked by a context route (see {@link guardWebSockets}).
 *
 * DNS here is not the browser's (the remote node or the operator's proxy resolves names), so a name
 * this machine cannot resolve is let through and only names that resolve here to a refused address
 * are refused; numeric hosts, origin patterns and ranges are exact.
 */
export interface RequestInterceptor {
  readonly memory: BlockMemory;
}

const interceptors = new WeakMap<Browser, Promise<RequestInterceptor>>();
const VERDICT_TTL_MS = 10_000;
const MAX_VERDICTS = 512;

/** One interceptor per browser (sessions sharing a browser share it; the policy is server-wide). */
export function interceptBrowser(browser: Browser, policy: UrlPolicy): Promise<RequestInterceptor> {
  let existing = interceptors.get(browser);
  if (!existing) {
    existing = start(browser, policy);
    interceptors.set(browser, existing);
    // A failed start is not cached: the next session tries again (and fails closed again).
    existing.catch(() => interceptors.delete(browser));
  }
  return existing;
}

async function start(browser: Browser, policy: UrlPolicy): Promise<RequestInterceptor> {
  const cdp = await browser.newBrowserCDPSession();
  const memory = new BlockMemory();
  const verdicts = new VerdictCache(policy);
  cdp.on('Fetch.requestPaused', (event) => {
    void answer(cdp, verdicts, memory, event.requestId, event.request.url);
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
  return { memory };
}

async function answer(
  cdp: CDPSession,
  verdicts: VerdictCache,
  memory: BlockMemory,
  requestId: string,
  url: string,
): Promise<void> {
  const target = hostOf(url);
  const verdict = target ? await verdicts.check(target).catch(() => undefined) : { allowed: true as const };
  // A check that threw is a refusal: the interceptor fails closed.
  if (verdict?.allowed) {
    await cdp.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
    return;
  }
  if (target) memory.remember(target.host, target.port, verdict?.reason ?? 'unresolvable');
  await cdp.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
}

interface Target {
  host: string;
  port: number;
  scheme: string;
}

/** host, port and scheme of a network URL; undefined for data:, blob: and other local schemes. */
function hostOf(url: string): Target | undefined {
  try {
    const parsed = new URL(url);
    const port = Number(parsed.port) || defaultPort(parsed.protocol);
    if (port === 0) return undefined;
    return { host: parsed.hostname, port, scheme: parsed.protocol.replace(':', '') };
  } catch {
    return undefined;
  }
}

/** Verdicts for a few seconds, so a page's hundred subresources cost one DNS lookup, not a hundred. */
class VerdictCache {
  private readonly entries = new Map<string, { verdict: Promise<Verdict>; atMs: number }>();

  constructor(private readonly policy: UrlPolicy) {}

  async check(target: Target): Promise<Verdict> {
    const key = `${target.scheme}://${target.host}:${target.port}`;
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && now - cached.atMs < VERDICT_TTL_MS) return cached.verdict;
    const verdict = this.policy.check(target.host, target.port, target.scheme).then((v) =>
      // This machine's DNS is not the browser's: a name it cannot resolve is the remote side's call.
      !v.allowed && v.reason === 'unresolvable' ? { allowed: true as const, address: undefined } : v,
    );
    this.entries.delete(key);
    this.entries.set(key, { verdict, atMs: now });
    if (this.entries.size > MAX_VERDICTS) this.entries.delete(this.entries.keys().next().value ?? '');
    return verdict;
  }
}

/**
 * Pages' WebSockets, which the Fetch domain does not see: a context route checks each one and
 * connects only an allowed one (the connection is still the browser's own). Known gap: a WebSocket
 * opened inside a worker is not routed by Playwright (docs/security.md).
 */
export async function guardWebSockets(
  context: BrowserContext,
  policy: UrlPolicy,
  memory: BlockMemory,
): Promise<void> {
  const verdicts = new VerdictCache(policy);
  await context.routeWebSocket(/.*/, async (ws) => {
    const target = hostOf(ws.url());
    const verdict = target ? await verdicts.check(target).catch(() => undefined) : undefined;
    if (verdict?.allowed) {
      ws.connectToServer();
      return;
    }
    if (target) memory.remember(target.host, target.port, verdict?.reason ?? 'unresolvable');
    await ws.close({ code: 1008, reason: 'blocked by the URL policy' }).catch(() => undefined);
  });
}
