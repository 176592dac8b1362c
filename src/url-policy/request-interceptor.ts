import type { Browser, BrowserContext, CDPSession } from 'playwright-core';
import { BlockMemory } from './block-memory.js';
import { LocalAccess } from './local-access.js';
import { disableNetworkPrediction } from './network-prediction.js';
import type { UrlPolicy, Verdict } from './policy.js';
import { hostOf, VerdictCache } from './verdict-cache.js';
import {
  allowSocket,
  fulfillGateModule,
  GATE_SOURCE,
  gateWorkerScript,
  isGateModule,
  socketCheckTarget,
} from './worker-gate.js';

/**
 * The URL policy where no guard proxy can sit in the browser's path: a browser on another machine
 * (cdp, selenium) or an operator proxy. The browser's own CDP Fetch domain is enabled on the
 * browser target, so Chromium pauses every request of every page, frame, popup, worker and service
 * worker, each redirect hop included, until this side answers; a refused one fails with
 * net::ERR_BLOCKED_BY_CLIENT before anything is sent. WebSockets are not Fetch requests: pages'
 * are checked by a context route (see {@link guardWebSockets}), workers' by a gate the interceptor
 * puts in front of every worker script (see worker-gate.ts).
 *
 * DNS here is not the browser's (the remote node or the operator's proxy resolves names), so a name
 * this machine cannot resolve is let through and only names that resolve here to a refused address
 * are refused; numeric hosts, origin patterns and ranges are exact.
 */
export interface RequestInterceptor {
  readonly memory: BlockMemory;
}

const interceptors = new WeakMap<Browser, Promise<RequestInterceptor>>();

/** One interceptor per browser (sessions sharing a browser share it; the policy is server-wide). */
export function interceptBrowser(
  browser: Browser,
  policy: UrlPolicy,
  options: { ownsProcess: boolean },
): Promise<RequestInterceptor> {
  let existing = interceptors.get(browser);
  if (!existing) {
    existing = start(browser, policy, options.ownsProcess);
    interceptors.set(browser, existing);
    // A failed start is not cached: the next session tries again (and fails closed again).
    existing.catch(() => interceptors.delete(browser));
  }
  return existing;
}

async function start(browser: Browser, policy: UrlPolicy, ownsProcess: boolean): Promise<RequestInterceptor> {
  const cdp = await browser.newBrowserCDPSession();
  const memory = new BlockMemory();
  const verdicts = new VerdictCache(policy);
  const localAccess = new LocalAccess(cdp, verdicts);
  cdp.on('Fetch.requestPaused', (event) => {
    if (event.responseStatusCode !== undefined || event.responseErrorReason !== undefined) {
      void gateWorkerScript(cdp, event, () => localAccess.restore(event.request.url, event.frameId));
      return;
    }
    void answer(cdp, verdicts, memory, event.requestId, event.request.url).then((refused) => {
      if (refused && event.resourceType === 'Document' && event.frameId)
        memory.rememberDocument(event.frameId);
    });
  });
  await cdp.send('Fetch.enable', {
    patterns: [
      { urlPattern: '*', requestStage: 'Request' },
      // Worker scripts and the modules they import are 'Other': they get the WebSocket gate.
      { urlPattern: '*', resourceType: 'Other', requestStage: 'Response' },
    ],
  });
  // No preconnects the interceptor would never see (best effort; see network-prediction.ts). Only in
  // a browser BrowserMesh started: the setting persists in the browser's profile, and a browser
  // reached over CDP belongs to its operator (who starts it with prediction off: docs/security.md).
  if (ownsProcess) await disableNetworkPrediction(cdp);
  return { memory };
}

/** Answers one paused request; true when it was refused. */
async function answer(
  cdp: CDPSession,
  verdicts: VerdictCache,
  memory: BlockMemory,
  requestId: string,
  url: string,
): Promise<boolean> {
  if (isGateModule(url)) {
    await fulfillGateModule(cdp, requestId);
    return false;
  }
  // A gated worker asking about a socket: answered here, the request itself goes nowhere.
  const socketUrl = socketCheckTarget(url);
  const target = hostOf(socketUrl ?? url);
  // No network host (data:, blob:) loads locally; a socket check without one is refused. A check that
  // threw is a refusal: the interceptor fails closed.
  const verdict: Verdict | undefined = target
    ? await verdicts.check(target).catch(() => undefined)
    : socketUrl === undefined
      ? { allowed: true, address: undefined }
      : undefined;
  if (verdict?.allowed) {
    await (
      socketUrl === undefined ? cdp.send('Fetch.continueRequest', { requestId }) : allowSocket(cdp, requestId)
    ).catch(() => undefined);
    return false;
  }
  if (target) memory.remember(target.host, target.port, verdict?.reason ?? 'unresolvable');
  await cdp.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
  return true;
}

/**
 * Pages' WebSockets, which the Fetch domain does not see: a context route checks each one and
 * connects only an allowed one (the connection is still the browser's own). Playwright does not route
 * workers' sockets: the worker gate checks those.
 */
export async function guardWebSockets(
  context: BrowserContext,
  policy: UrlPolicy,
  memory: BlockMemory,
): Promise<void> {
  const verdicts = new VerdictCache(policy);
  // Pages start workers from blob: URLs the interceptor never sees: the gate bootstraps those.
  await context.addInitScript({ content: GATE_SOURCE });
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
