import type { Request, Route } from 'playwright-core';
import { withDeadline, type OperationContext } from '../../engine/runtime.js';
import type { Session } from '../../engine/session.js';
import { playwrightGlobRegex } from '../../engine/playwright-glob.js';
import { matchOffLoop, toRegexPattern, type RegexPattern } from '../../engine/regex-worker.js';
import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../../errors.js';
import { ABORT_REASONS, type AbortReason } from './abort-reasons.js';

/**
 * Per-session network routes: a URL glob or regexp (+ method, resource type) → fulfil, abort, delay,
 * or continue with changed headers. Installed with the context's own `route`, so they apply to every
 * page and popup of the session and survive navigation.
 *
 * Order, which must stay true: (1) the URL policy — every request a route sees is checked against it
 * first and aborted (blockedbyclient) when refused, so a route can never answer for, or send to, a
 * blocked origin; (2) the route's own action; (3) for `continue`, the request goes on to the guard
 * (proxy or request interception), which checks it again on the way out.
 */

export { ABORT_REASONS, type AbortReason };

export interface RouteSpec {
  /** A glob (`**\/api/*`) or `/regexp/flags`. */
  url: string;
  method?: string | undefined;
  resourceType?: string | undefined;
  status?: number | undefined;
  headers?: Record<string, string> | undefined;
  /** The fulfilled body, already read (text, base64 or a file under the upload roots). */
  body?: { bytes: Buffer; contentType?: string | undefined } | undefined;
  abort?: AbortReason | undefined;
  delayMs?: number | undefined;
}

export interface RouteInfo {
  routeId: string;
  url: string;
  method?: string;
  resourceType?: string;
  action: 'fulfill' | 'abort' | 'continue';
  hits: number;
  /** Requests whose URL the route's pattern could not decide within its budget (treated as not matching). */
  regexTimeouts?: number;
}

export const ROUTE_LIMITS = {
  maxRoutes: 50,
  maxBodyBytes: 5 * 1024 * 1024,
  /** Fulfilled bodies held by one session's routes, all together. */
  maxTotalBodyBytes: 16 * 1024 * 1024,
  maxDelayMs: 30_000,
  /** Matching time a route's pattern gets per request URL (on a worker thread). */
  regexRunMs: 250,
  /** Waiting for a free worker and matching, per request URL. */
  regexWaitMs: 10_000,
} as const;

/**
 * Every route is installed for every URL and decides per request, off the event loop, whether the
 * URL matches: a glob as Playwright would read it, a `/regexp/` as written.
 */
type Matcher = (url: URL) => boolean;
const EVERY_URL: Matcher = () => true;

interface Installed {
  info: RouteInfo;
  matcher: Matcher;
  bodyBytes: number;
  handler: (route: Route, request: Request) => Promise<void>;
}

class RouteTable {
  readonly routes = new Map<string, Installed>();
  next = 1;
}

const TABLES = new WeakMap<Session, RouteTable>();

function tableOf(session: Session): RouteTable {
  let table = TABLES.get(session);
  if (!table) {
    table = new RouteTable();
    TABLES.set(session, table);
  }
  return table;
}

export function addRoute(ctx: OperationContext, spec: RouteSpec): Promise<RouteInfo> {
  return withDeadline(install(ctx, spec), ctx.deadline, ctx.signal);
}

async function install(ctx: OperationContext, spec: RouteSpec): Promise<RouteInfo> {
  const session = ctx.session;
  if (session.sharesContext)
    throw new BrowserMeshError(
      ErrorCodes.NOT_SUPPORTED,
      'Routes need a session of its own context (this one shares a persistent profile)',
    );
  const table = tableOf(session);
  if (table.routes.size >= ROUTE_LIMITS.maxRoutes)
    throw new BrowserMeshError(
      ErrorCodes.LIMIT_EXCEEDED,
      `At most ${ROUTE_LIMITS.maxRoutes} routes per session`,
      {
        details: { field: 'url', limit: ROUTE_LIMITS.maxRoutes },
        recoveryHint: 'Remove routes you no longer need (action remove).',
      },
    );
  if (spec.body !== undefined && spec.body.bytes.length > ROUTE_LIMITS.maxBodyBytes)
    throw new BrowserMeshError(
      ErrorCodes.LIMIT_EXCEEDED,
      `A fulfilled body is at most ${ROUTE_LIMITS.maxBodyBytes} bytes`,
      { details: { field: 'body', limit: ROUTE_LIMITS.maxBodyBytes } },
    );
  const bodyBytes = spec.body?.bytes.length ?? 0;
  const held = [...table.routes.values()].reduce((sum, route) => sum + route.bodyBytes, 0);
  if (held + bodyBytes > ROUTE_LIMITS.maxTotalBodyBytes)
    throw new BrowserMeshError(
      ErrorCodes.LIMIT_EXCEEDED,
      `The session's routes hold at most ${ROUTE_LIMITS.maxTotalBodyBytes} bytes of fulfilled bodies`,
      {
        details: { field: 'body', limit: ROUTE_LIMITS.maxTotalBodyBytes },
        recoveryHint: 'Remove routes you no longer need (action remove), or fulfil smaller bodies.',
      },
    );
  const regex = toRegex(spec.url);
  await assertTargetAllowed(session, spec.url);
  const info: RouteInfo = {
    routeId: `r${table.next++}`,
    url: spec.url,
    ...(spec.method !== undefined ? { method: spec.method.toUpperCase() } : {}),
    ...(spec.resourceType !== undefined ? { resourceType: spec.resourceType } : {}),
    action:
      spec.abort !== undefined
        ? 'abort'
        : spec.body !== undefined || spec.status !== undefined
          ? 'fulfill'
          : 'continue',
    hits: 0,
  };
  const handler = (route: Route, request: Request): Promise<void> =>
    handle(session, spec, info, regex, route, request);
  const matcher = EVERY_URL;
  await session.browserContext.route(matcher, handler);
  table.routes.set(info.routeId, { info, matcher, bodyBytes, handler });
  return { ...info };
}

async function handle(
  session: Session,
  spec: RouteSpec,
  info: RouteInfo,
  regex: RegexPattern,
  route: Route,
  request: Request,
): Promise<void> {
  if (!(await regexMatches(regex, info, request.url()))) return route.fallback();
  if (spec.method !== undefined && request.method() !== spec.method.toUpperCase()) return route.fallback();
  if (spec.resourceType !== undefined && request.resourceType() !== spec.resourceType)
    return route.fallback();
  info.hits++;
  if (!(await allowedByPolicy(session, request.url()))) return route.abort('blockedbyclient');
  if (spec.delayMs !== undefined && spec.delayMs > 0) await new Promise((r) => setTimeout(r, spec.delayMs));
  if (spec.abort !== undefined) return route.abort(spec.abort);
  if (info.action === 'fulfill') {
    const headers = {
      ...(spec.body?.contentType ? { 'content-type': spec.body.contentType } : {}),
      ...spec.headers,
    };
    return route.fulfill({ status: spec.status ?? 200, headers, body: spec.body?.bytes ?? Buffer.alloc(0) });
  }
  if (spec.headers === undefined) return route.fallback();
  return route.fallback({ headers: { ...request.headers(), ...spec.headers } });
}

async function allowedByPolicy(session: Session, url: string): Promise<boolean> {
  const guard = session.urlGuard;
  if (!guard?.policy.active) return true;
  try {
    await guard.assertAllowed(url);
    return true;
  } catch {
    return false;
  }
}

/** A route whose pattern names one literal host the policy blocks is refused at once, not just at use. */
async function assertTargetAllowed(session: Session, url: string): Promise<void> {
  const guard = session.urlGuard;
  if (!guard?.policy.active || url.startsWith('/')) return;
  const literal = /^(https?):\/\/([^/*?{}[\]]+)(\/|$)/.exec(url);
  if (!literal) return;
  try {
    await guard.assertAllowed(`${literal[1]}://${literal[2]}/`, 'url');
  } catch (error) {
    if (error instanceof BrowserMeshError)
      throw new BrowserMeshError(
        ErrorCodes.INVALID_ARGUMENT,
        'url: the URL policy blocks this host; a route cannot open it',
        {
          details: {
            field: 'url',
            ...(error.details?.reason !== undefined ? { reason: error.details.reason } : {}),
          },
        },
      );
    throw error;
  }
}

/** The pattern of a `/regexp/flags` URL, or of a glob as Playwright reads it (checked now). */
function toRegex(url: string): RegexPattern {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(url);
  if (regex) return toRegexPattern(regex[1] ?? '', regex[2] ?? '', 'url');
  const glob = playwrightGlobRegex(url, 'url');
  return toRegexPattern(glob.source, glob.flags, 'url');
}

/**
 * Whether the page's request URL matches a route, decided on a worker thread: the page chooses the
 * URL's length, so a backtracking pattern (a regexp, or the expression a glob becomes) must not run
 * on the event loop. A URL the pattern cannot decide within its budget does not match (the request
 * goes on as if the route were not there) and is counted on the route.
 */
async function regexMatches(regex: RegexPattern, info: RouteInfo, url: string): Promise<boolean> {
  try {
    const budget = { timeoutMs: ROUTE_LIMITS.regexWaitMs, runMs: ROUTE_LIMITS.regexRunMs, field: 'url' };
    return (await matchOffLoop(regex, [url], budget)).length > 0;
  } catch (error) {
    // A stopped worker (or anything else) does not fail the page's request either.
    if (isBrowserMeshError(error) && error.code === ErrorCodes.OPERATION_TIMEOUT)
      info.regexTimeouts = (info.regexTimeouts ?? 0) + 1;
    return false;
  }
}

export function listRoutes(session: Session): RouteInfo[] {
  return [...tableOf(session).routes.values()].map((r) => ({ ...r.info }));
}

/** Removes one route, or all of them when no id is given; returns how many. */
export async function removeRoutes(session: Session, routeId: string | undefined): Promise<number> {
  const table = tableOf(session);
  const doomed = routeId === undefined ? [...table.routes.values()] : [table.routes.get(routeId)];
  if (routeId !== undefined && doomed[0] === undefined)
    throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'routeId: no such route in this session', {
      details: { field: 'routeId' },
    });
  for (const route of doomed) {
    if (!route) continue;
    await session.browserContext.unroute(route.matcher, route.handler);
    table.routes.delete(route.info.routeId);
  }
  return doomed.length;
}
