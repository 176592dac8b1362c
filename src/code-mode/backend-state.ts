import type { PageOperationContext } from '../engine/runtime.js';
import { focus } from '../operations/act/actions.js';
import { addCookies, cookies, type CookieInput, type CookieView } from '../operations/state/cookies.js';
import { emulate } from '../operations/state/emulate.js';
import { addRoute, listRoutes, removeRoutes, type RouteSpec } from '../operations/state/routes.js';
import { selectAllText } from '../operations/act/select-all.js';
import { redactSecretsDeep } from '../secrets.js';
import type { RouteAction } from './facade-calls.js';
import type { FacadeCall } from './facade-parse.js';
import { toTargetSpec } from './selector-target.js';
import type { FacadeRunners } from './backend-define.js';

/**
 * The session-state ops of code mode, each the engine operation its MCP tool runs: routes
 * (browser_route), cookies (browser_cookies), media (browser_emulate), text selection
 * (browser_focus). Routes and cookies belong to the session, whichever page the run drives.
 */

type ClearFilter = Extract<FacadeCall, { op: 'clearCookies' }>;

export const STATE_RUNNERS = {
  route: async (ctx, call) => {
    await addRoute(ctx, toRouteSpec(call.url, call.action));
    return null;
  },
  unroute: async (ctx, call) => {
    await unroute(ctx, call.url);
    return null;
  },
  cookies: async (ctx, call) => listCookies(ctx, call.urls),
  addCookies: async (ctx, call) => {
    await addCookies(
      ctx,
      call.cookies.map((cookie): CookieInput => ({ action: 'set', ...cookie })),
    );
    return null;
  },
  clearCookies: async (ctx, call) => {
    await clearCookies(ctx, call);
    return null;
  },
  emulateMedia: async (ctx, call) => {
    const { op: _op, ...media } = call;
    await emulate(ctx, media);
    return null;
  },
  selectText: async (ctx, call, { note }) => {
    const spec = toTargetSpec(call.target);
    note(
      call.text === undefined
        ? await selectAllText(ctx, spec, '')
        : await focus(ctx, spec, '', { text: call.text, occurrence: call.occurrence }),
    );
    return null;
  },
} satisfies Partial<FacadeRunners>;

function toRouteSpec(url: string, action: RouteAction): RouteSpec {
  if (action.kind === 'abort') return { url, abort: action.reason };
  if (action.kind === 'continue') return { url, headers: action.headers };
  return {
    url,
    // A status, always: a route with neither status nor body would continue instead of fulfilling.
    status: action.status ?? 200,
    headers: action.headers,
    body: { bytes: Buffer.from(action.body ?? '', 'utf8'), contentType: action.contentType },
  };
}

/** Playwright's unroute(url): every route added with that same pattern; no url: all of them. */
async function unroute(ctx: PageOperationContext, url: string | undefined): Promise<void> {
  if (url === undefined) {
    await removeRoutes(ctx.session, undefined);
    return;
  }
  for (const route of listRoutes(ctx.session))
    if (route.url === url) await removeRoutes(ctx.session, route.routeId);
}

/**
 * The session's cookies (those for any of `urls`, by host, when given), credential-like values
 * redacted as browser_cookies lists them, and `--secrets` values redacted before the script sees
 * them (a script could re-encode a value past the run's output redaction).
 */
async function listCookies(ctx: PageOperationContext, urls: string[]): Promise<CookieView[]> {
  const lists = await Promise.all(
    (urls.length === 0 ? [undefined] : urls).map(
      async (url) => (await cookies(ctx, { action: 'list', url })).cookies ?? [],
    ),
  );
  const seen = new Set<string>();
  const out: CookieView[] = [];
  for (const cookie of lists.flat()) {
    const key = `${cookie.name}\n${cookie.domain}\n${cookie.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(cookie);
  }
  return redactSecretsDeep(ctx.session.secrets, out);
}

/** Playwright's clearCookies({ name, domain, path }): all, by name, or each cookie the filter matches. */
async function clearCookies(ctx: PageOperationContext, filter: ClearFilter): Promise<void> {
  const { name, domain, path } = filter;
  if (name === undefined && domain === undefined && path === undefined) {
    await cookies(ctx, { action: 'clear' });
    return;
  }
  if (name !== undefined) {
    await cookies(ctx, { action: 'delete', name, domain, path });
    return;
  }
  const matching = (await cookies(ctx, { action: 'list', domain, path })).cookies ?? [];
  for (const cookie of matching)
    await cookies(ctx, { action: 'delete', name: cookie.name, domain: cookie.domain, path: cookie.path });
}
