import type { Request, Route } from 'playwright-core';
import { withDeadline, type OperationContext } from '../../engine/runtime.js';
import type { Session } from '../../engine/session.js';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';

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

/** The error reasons a route may abort with (Playwright's route.abort). */
export const ABORT_REASONS = [
  'failed',
  'aborted',
  'blockedbyclient',
  'connectionrefused',
  'connectionreset',
  'internetdisconnected',
  'namenotresolved',
  'timedout',
  'accessdenied',
] as const;

export type AbortReason = (typeof ABORT_REASONS)[number];

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
}

export const ROUTE_LIMITS = { maxRoutes: 50, maxBodyBytes: 5 * 1024 * 1024, maxDelayMs: 30_000 } as const;

interface Installed {
  info: RouteInfo;
  matcher: string | RegExp;
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
  const matcher = toMatcher(spec.url);
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
    handle(session, spec, info, route, request);
  await session.browserContext.route(matcher, handler);
  table.routes.set(info.routeId, { info, matcher, handler });
  return { ...info };
}

async function handle(
  session: Session,
  spec: RouteSpec,
  info: RouteInfo,
  route: Route,
  request: Request,
): Promise<void> {
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

function toMatcher(url: string): string | RegExp {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(url);
  if (!regex) return url;
  try {
    return new RegExp(regex[1] ?? '', (regex[2] ?? '').replace(/[gy]/g, ''));
  } catch {
    throw invalidArgument('url', 'is not a valid regular expression');
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
