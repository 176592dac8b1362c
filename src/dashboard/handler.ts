import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BrowserMeshError, ErrorCodes, toSerializedError } from '../errors.js';
import type { Logger } from '../engine/logger.js';
import type { BrowserMesh } from '../engine/runtime.js';
import {
  checkRequest,
  DEFAULT_PRINCIPAL,
  isRefusal,
  LOCAL_PRINCIPAL,
  readBody,
  type RequestPolicy,
} from '../http/request-guard.js';
import { LiveFrames } from './live-frames.js';
import { Thumbnails } from './thumbnails.js';
import { buildDashboardState } from './state.js';
import { StreamSlots } from './stream-slots.js';
import { parseTakeoverInput, TakeoverController } from './takeover.js';
import { handoffsOf, type Handoff } from '../engine/handoff.js';

export const DASHBOARD_PATH = '/dashboard';

export interface DashboardOptions {
  mesh: BrowserMesh;
  logger: Logger;
  /** Lets a person take a session over (click and type) while its queue waits. Off by default. */
  takeover: boolean;
  /** Event streams (state and frames) one principal may hold open at once; default 16. */
  maxStreamsPerPrincipal?: number;
}

export interface Dashboard {
  /**
   * Serves one request under /dashboard. The caller has matched the path, nothing else.
   * `rateLimit` takes one request from the principal's budget (the MCP server's own): undefined to
   * go on, else the seconds to wait.
   */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    policy: RequestPolicy,
    rateLimit?: (principal: string) => number | undefined,
  ): Promise<void>;
  /** Pages being screencast right now: one per watched page, none while nobody watches. */
  watchedPages(): number;
  close(): void;
}

/** The static shell lives in the package (assets/), next to dist and src alike: no build step. */
const ASSETS = new URL('../../assets/dashboard/', import.meta.url);
const STATIC: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/takeover.js': { file: 'takeover.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};
const STATE_INTERVAL_MS = 2000;
const STATE_DEBOUNCE_MS = 150;
const MAX_BODY_BYTES = 8 * 1024;
const DEFAULT_MAX_STREAMS = 16;

/**
 * The live dashboard. The static shell holds no data and is served to anyone passing the Host/Origin
 * guard; everything under /dashboard/api needs the same bearer token as MCP (the page sends it from
 * the URL fragment, which never reaches a server or a log).
 */
export function createDashboard(options: DashboardOptions): Dashboard {
  const { mesh, logger } = options;
  const frames = new LiveFrames({ minFrameIntervalMs: 200, maxWidth: 960, maxHeight: 720, quality: 60 });
  const takeover = new TakeoverController(mesh);
  const thumbnails = new Thumbnails((page) => frames.latest(page));
  const streams = new StreamSlots(options.maxStreamsPerPrincipal ?? DEFAULT_MAX_STREAMS);
  const handoffs = handoffsOf(mesh);
  const api = async (
    req: IncomingMessage,
    res: ServerResponse,
    route: string,
    url: URL,
    viewer: string,
    link: Handoff | undefined,
  ): Promise<void> => {
    // A take-over link (browser_request_human) opens its one session, while the request waits.
    const sees = (sessionId: string): boolean =>
      link
        ? handoffs.get(link.sessionId) === link && sessionId === link.sessionId
        : canSee(mesh, viewer, sessionId);
    const state = (): ReturnType<typeof buildDashboardState> =>
      buildDashboardState(mesh, {
        takeoverEnabled: options.takeover,
        isTakenOver: (id) => takeover.isTakenOver(id),
        needsYou: (id) => handoffs.get(id),
        includes: sees,
        operator: !link && (viewer === DEFAULT_PRINCIPAL || viewer === LOCAL_PRINCIPAL),
      });
    if (req.method === 'GET' && route === '/api/state') return sendJson(res, 200, await state());
    if (req.method === 'GET' && route === '/api/stream') {
      res.once('close', streams.take(viewer));
      return streamState(req, res, mesh, state);
    }
    if (req.method === 'GET' && route === '/api/frames') {
      const page = mesh.getSession(visibleId(param(url, 'sessionId'), sees)).getPage(param(url, 'pageId'));
      res.once('close', streams.take(viewer));
      return streamFrames(req, res, (listener) => frames.watch(page, listener));
    }
    if (req.method === 'GET' && route === '/api/thumbnail') {
      const page = mesh.getSession(visibleId(param(url, 'sessionId'), sees)).getPage(param(url, 'pageId'));
      return sendJson(res, 200, await thumbnails.of(page));
    }
    if (req.method !== 'POST' || !route.startsWith('/api/takeover')) throw notFound();
    const body = options.takeover ? await readJson(req) : await readJson(req).catch(() => undefined);
    // A session that asked for a person may be driven by whoever sees it, take-over on or off.
    if (!options.takeover && !asksForPerson(body, sees)) {
      throw new BrowserMeshError(
        ErrorCodes.NOT_SUPPORTED,
        'Take-over is off (start with --dashboard-takeover)',
      );
    }
    const sessionId = visibleId(stringField(body, 'sessionId'), sees);
    if (route === '/api/takeover/start') await takeover.start(sessionId, stringField(body, 'pageId'));
    else if (route === '/api/takeover/release') takeover.release(sessionId);
    else if (route === '/api/takeover/input') await takeover.input(sessionId, parseTakeoverInput(body));
    else throw notFound();
    return sendJson(res, 200, { ok: true });
  };

  const asksForPerson = (body: unknown, sees: (sessionId: string) => boolean): boolean => {
    const id =
      typeof body === 'object' && body !== null ? (body as { sessionId?: unknown }).sessionId : undefined;
    return typeof id === 'string' && handoffs.get(id) !== undefined && sees(id);
  };

  return {
    async handle(req, res, policy, rateLimit) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const route = url.pathname.slice(DASHBOARD_PATH.length);
      const asset = STATIC[route];
      // The shell carries no data: only the Host/Origin guard applies to it.
      const link = handoffs.byToken(bearerOf(req));
      const checked = checkRequest(req, asset || route === '' || link ? { ...policy, tokens: [] } : policy);
      const refusal = isRefusal(checked) ? checked : undefined;
      if (refusal) {
        logger.warn('dashboard_refused', { code: String(refusal.status) });
        res.writeHead(refusal.status, { 'Content-Type': 'application/json', ...refusal.headers });
        return void res.end(JSON.stringify({ error: { code: 'UNAUTHORIZED', message: refusal.message } }));
      }
      // The page loads app.js and style.css relative to itself: it must be addressed as a folder.
      if (route === '') {
        res.writeHead(301, { Location: `${DASHBOARD_PATH}/` });
        return void res.end();
      }
      if (asset) {
        if (req.method !== 'GET') return sendJson(res, 405, { error: { code: 'NOT_SUPPORTED' } });
        return sendAsset(res, asset);
      }
      // Without a token, any page on another loopback origin (a dev server, a test page) passes the
      // Host/Origin guard by host name: the API answers only its own origin (take-over included).
      if (policy.tokens.length === 0 && !sameOrigin(req)) {
        logger.warn('dashboard_refused', { code: '403' });
        return sendJson(res, 403, {
          error: { code: 'UNAUTHORIZED', message: 'Forbidden: Origin is not this dashboard' },
        });
      }
      const principal = link ? `handoff:${link.sessionId}` : isRefusal(checked) ? '' : checked.principal;
      // API requests count against the principal's request budget, as MCP requests do.
      const retryAfter = rateLimit?.(principal);
      if (retryAfter !== undefined) {
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': String(retryAfter) });
        return void res.end(
          JSON.stringify({ error: { code: 'LIMIT_EXCEEDED', message: 'Too many requests' } }),
        );
      }
      try {
        await api(req, res, route, url, principal, link);
      } catch (error) {
        const serialized = toSerializedError(error, 'dashboard');
        if (!res.headersSent) sendJson(res, statusFor(serialized.code), { error: serialized });
        else res.end();
      }
    },
    watchedPages: () => frames.activeCount,
    close() {
      takeover.releaseAll();
      frames.stopAll();
    },
  };
}

/**
 * Who sees which sessions: a principal from the tokens file sees (and may take over) only the
 * sessions it created; the operator (the main token, or no token on loopback) sees every session.
 */
function canSee(mesh: BrowserMesh, viewer: string, sessionId: string): boolean {
  if (viewer === DEFAULT_PRINCIPAL || viewer === LOCAL_PRINCIPAL) return true;
  return mesh.principalOf(sessionId) === viewer;
}

function bearerOf(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** No Origin (not a browser's cross-origin request), or one whose host:port is the Host it asked. */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host.toLowerCase() === (req.headers.host ?? '').toLowerCase();
  } catch {
    return false;
  }
}

/** Another principal's session is answered exactly like an unknown one. */
function visibleId(sessionId: string, sees: (sessionId: string) => boolean): string {
  if (sees(sessionId)) return sessionId;
  throw new BrowserMeshError(ErrorCodes.SESSION_NOT_FOUND, 'No such session', {
    details: { field: 'sessionId' },
  });
}

/** Server-sent events: the whole state on every change (debounced) and every few seconds. */
async function streamState(
  req: IncomingMessage,
  res: ServerResponse,
  mesh: BrowserMesh,
  state: () => Promise<unknown>,
): Promise<void> {
  openEventStream(res);
  let timer: NodeJS.Timeout | undefined;
  let sending = false;
  const send = async (): Promise<void> => {
    if (sending || res.writableEnded) return;
    sending = true;
    try {
      res.write(`event: state\ndata: ${JSON.stringify(await state())}\n\n`);
    } finally {
      sending = false;
    }
  };
  const onChange = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => void send().catch(() => undefined), STATE_DEBOUNCE_MS);
  };
  const interval = setInterval(onChange, STATE_INTERVAL_MS);
  mesh.activity.on('change', onChange);
  req.once('close', () => {
    clearTimeout(timer);
    clearInterval(interval);
    mesh.activity.off('change', onChange);
  });
  await send();
}

function streamFrames(
  req: IncomingMessage,
  res: ServerResponse,
  watch: (listener: (frame: { data: string; timestamp: number; viewport: object }) => void) => () => void,
): void {
  openEventStream(res);
  const stop = watch((frame) => {
    const payload = { data: frame.data, timestamp: frame.timestamp, viewport: frame.viewport };
    res.write(`event: frame\ndata: ${JSON.stringify(payload)}\n\n`);
  });
  req.once('close', stop);
}

function openEventStream(res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
  });
  res.write(': open\n\n');
}

async function sendAsset(res: ServerResponse, asset: { file: string; type: string }): Promise<void> {
  const body = await readFile(new URL(asset.file, ASSETS));
  res.writeHead(200, {
    'Content-Type': asset.type,
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  try {
    return JSON.parse((await readBody(req, MAX_BODY_BYTES)).toString('utf8')) as unknown;
  } catch {
    throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'body: expected a small JSON object', {
      details: { field: 'body' },
    });
  }
}

function stringField(body: unknown, field: string): string {
  const value =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  if (typeof value !== 'string' || !/^[\w-]{1,64}$/.test(value)) {
    throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, `${field}: expected an id`, {
      details: { field },
    });
  }
  return value;
}

function param(url: URL, field: string): string {
  return stringField({ [field]: url.searchParams.get(field) ?? undefined }, field);
}

function notFound(): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'path: no such dashboard route', {
    details: { field: 'path' },
  });
}

function statusFor(code: string): number {
  if (code === ErrorCodes.SESSION_NOT_FOUND || code === ErrorCodes.PAGE_NOT_FOUND) return 404;
  if (code === ErrorCodes.INVALID_ARGUMENT) return 400;
  if (code === ErrorCodes.NOT_SUPPORTED) return 403;
  if (code === ErrorCodes.LIMIT_EXCEEDED) return 429;
  return 500;
}
