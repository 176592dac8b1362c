import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { isLoopbackHost } from '../config/load.js';
import type { Logger } from '../engine/logger.js';
import type { BrowserMesh } from '../engine/runtime.js';
import { DASHBOARD_PATH, type Dashboard } from '../dashboard/handler.js';
import { jsonTextTooDeep } from './message-guard.js';
import {
  BodyTooLarge,
  checkRequest,
  createPolicy,
  isRefusal,
  readBody,
  type Refusal,
} from '../http/request-guard.js';
import {
  DEFAULT_HTTP_LIMITS,
  RateLimiter,
  tooManyClients,
  tooManyRequests,
  type HttpLimits,
} from './http-limits.js';

export interface HttpServerOptions {
  mesh: BrowserMesh;
  logger: Logger;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Bearer token clients must send ('' = none). Required for a non-loopback host (or `tokens`). */
  token: string;
  /** More tokens, each its own principal (saved states, session quota and counts are per principal). */
  tokens?: ReadonlyArray<{ principal: string; token: string }>;
  /** Host names accepted besides loopback and the bound address. */
  allowedHosts?: readonly string[];
  /** Every client sees every session; otherwise a session belongs to the client that created it. */
  sharedSessions: boolean;
  /** How long a client may be gone (no open request) before its sessions are closed. */
  disconnectGraceMs: number;
  maxBodyBytes: number;
  /** Client cap, header/body timeouts and the per-principal rate limit (defaults: DEFAULT_HTTP_LIMITS). */
  limits?: Partial<HttpLimits>;
  /**
   * A fresh MCP server for one client; `owner` keys its sessions (undefined in shared mode) and
   * `principal` (who the token says it is) keys its saved states, quota and counts.
   */
  createServer(owner: string | undefined, principal: string): Server;
  /** Serves the live dashboard at /dashboard (same Host/Origin guard and token) when given. */
  dashboard?: Dashboard;
}

export interface RunningHttpServer {
  /** e.g. http://127.0.0.1:8940/mcp */
  url: string;
  port: number;
  /** MCP sessions (clients) currently known. */
  clientCount(): number;
  close(): Promise<void>;
}

/** One MCP client connection: its own transport and server, sharing the one BrowserMesh. */
interface Client {
  id: string;
  /** The principal that opened this MCP session; requests of another principal never reach it. */
  principal: string;
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** HTTP requests of this client still open (the SDK client keeps a GET event stream open). */
  openRequests: number;
  graceTimer: NodeJS.Timeout | undefined;
  /** Requests other than the GET event stream still open: while any is, the client is not idle. */
  activeRequests: number;
  idleTimer: NodeJS.Timeout | undefined;
  ended: boolean;
}

const MCP_PATH = '/mcp';
const HEALTH_PATH = '/healthz';

/**
 * MCP over Streamable HTTP on node:http. Every request passes the Host/Origin/token guard and the
 * body limit first. Each MCP session gets its own SDK server whose sessions only it can see, and a
 * client that stays away longer than the grace period has its sessions closed.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  if (!isLoopbackHost(options.host) && options.token === '' && (options.tokens ?? []).length === 0) {
    throw new Error('A non-loopback HTTP host needs a bearer token (BROWSERMESH_HTTP_TOKEN)');
  }
  const policy = createPolicy({
    host: options.host,
    allowedHosts: options.allowedHosts ?? [],
    token: options.token,
    tokens: options.tokens ?? [],
  });
  const clients = new Map<string, Client>();
  const { logger } = options;
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
  const limiter = new RateLimiter(limits.ratePerMinute);
  /** Initializations under way: they count against the client cap before they are registered. */
  let opening = 0;
  const openingBy = new Map<string, number>();
  // Every other configured principal keeps one slot: one principal cannot take them all.
  const principals = (options.tokens ?? []).length + (options.token ? 1 : 0);
  const perPrincipal = Math.max(1, limits.maxClients - Math.max(0, principals - 1));
  const slotsOf = (principal: string): number =>
    [...clients.values()].filter((c) => c.principal === principal).length + (openingBy.get(principal) ?? 0);

  const endClient = async (client: Client, reason: string): Promise<void> => {
    if (client.ended) return;
    client.ended = true;
    clearTimeout(client.graceTimer);
    clearTimeout(client.idleTimer);
    clients.delete(client.id);
    const count = await options.mesh.closeSessionsOf(client.id).catch(() => 0);
    logger.info('http_client_ended', { reason, count });
    await client.server.close().catch(() => undefined);
  };

  /**
   * Counts an open request; when the last one ends, the grace period starts. A held-open GET event
   * stream keeps a client connected but not active: after `clientIdleMs` without any other request
   * the client is ended, so an idle client cannot sit on a slot.
   */
  const track = (client: Client, req: IncomingMessage, res: ServerResponse): void => {
    client.openRequests++;
    clearTimeout(client.graceTimer);
    client.graceTimer = undefined;
    const active = req.method !== 'GET';
    if (active) {
      client.activeRequests++;
      clearTimeout(client.idleTimer);
      client.idleTimer = undefined;
    }
    res.once('close', () => {
      client.openRequests--;
      if (active && --client.activeRequests === 0 && !client.ended && limits.clientIdleMs > 0) {
        client.idleTimer = setTimeout(() => void endClient(client, 'idle'), limits.clientIdleMs);
        client.idleTimer.unref();
      }
      if (client.openRequests > 0 || client.ended) return;
      client.graceTimer = setTimeout(() => void endClient(client, 'disconnected'), options.disconnectGraceMs);
      client.graceTimer.unref();
    });
  };

  const newClient = async (principal: string): Promise<Client> => {
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => void clients.set(id, client),
      // The client said goodbye (HTTP DELETE): no grace, its sessions close now.
      onsessionclosed: () => void endClient(client, 'terminated'),
    });
    const server = options.createServer(options.sharedSessions ? undefined : id, principal);
    const client: Client = {
      id,
      principal,
      transport,
      server,
      openRequests: 0,
      graceTimer: undefined,
      activeRequests: 0,
      idleTimer: undefined,
      ended: false,
    };
    transport.onclose = () => void endClient(client, 'transport_closed');
    await server.connect(transport);
    return client;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    // The dashboard checks the Host/Origin policy and the token itself (its shell page holds no data).
    if (options.dashboard && (path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`)))
      return options.dashboard.handle(req, res, policy, (principal) => limiter.take(principal));
    const checked = checkRequest(req, policy);
    if (isRefusal(checked)) return refuse(res, checked, logger);
    const { principal } = checked;
    const retryAfter = limiter.take(principal);
    if (retryAfter !== undefined) return refuse(res, tooManyRequests(retryAfter), logger);
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    // For container health checks: behind the same Host and token guard, and it never launches a
    // browser or names anything (a liveness probe must stay cheap and say nothing).
    if (pathname === HEALTH_PATH && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return void res.end('{"status":"ok"}');
    }
    if (pathname !== MCP_PATH) return refuse(res, { status: 404, message: 'Not found' });
    if (!['GET', 'POST', 'DELETE'].includes(req.method ?? '')) {
      return refuse(res, {
        status: 405,
        message: 'Method not allowed',
        headers: { Allow: 'GET, POST, DELETE' },
      });
    }
    let body: unknown;
    if (req.method === 'POST') {
      const parsed = await parseBody(req, options.maxBodyBytes);
      if ('refusal' in parsed) return refuse(res, parsed.refusal, logger);
      body = parsed.body;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const client = clients.get(sessionId);
      // A session id is bound to the principal that opened it: another token cannot ride on it.
      if (!client || client.principal !== principal)
        return refuse(res, { status: 404, message: 'Session not found', code: -32001 });
      track(client, req, res);
      return client.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return refuse(res, { status: 400, message: 'Bad Request: no valid MCP session id' });
    }
    if (clients.size + opening >= limits.maxClients || slotsOf(principal) >= perPrincipal)
      return refuse(res, tooManyClients(limits.maxClients), logger);
    opening++;
    openingBy.set(principal, (openingBy.get(principal) ?? 0) + 1);
    let client: Client;
    try {
      client = await newClient(principal);
      track(client, req, res);
      await client.transport.handleRequest(req, res, body);
    } finally {
      opening--;
      const left = (openingBy.get(principal) ?? 1) - 1;
      if (left > 0) openingBy.set(principal, left);
      else openingBy.delete(principal);
    }
    // A refused initialize never registered the client: drop its server.
    if (!clients.has(client.id)) await endClient(client, 'initialize_refused');
  };

  // Slow senders (half-sent headers, a trickled body) are cut off; node checks every interval.
  const headersTimeout = limits.headersTimeoutMs;
  const http = createServer(
    {
      headersTimeout,
      requestTimeout: Math.max(limits.bodyTimeoutMs, headersTimeout),
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
    (req, res) => {
      handle(req, res).catch(() => {
        logger.error('http_request_failed', { reason: 'internal' });
        if (!res.headersSent) refuse(res, { status: 500, message: 'Internal server error' });
        else res.end();
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const hostForUrl =
    options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  logger.info('http_listening', {
    reason: options.sharedSessions ? 'shared_sessions' : 'per_client_sessions',
  });

  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostForUrl}:${port}${MCP_PATH}`,
    port,
    clientCount: () => clients.size,
    close: () => {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => http.close(() => resolve()));
        options.dashboard?.close();
        await Promise.allSettled([...clients.values()].map((client) => endClient(client, 'shutdown')));
        http.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

async function parseBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ body: unknown } | { refusal: Refusal & { code?: number } }> {
  let raw: Buffer;
  try {
    raw = await readBody(req, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      return {
        refusal: {
          status: 413,
          message: `Payload too large (limit ${maxBytes} bytes)`,
          headers: { Connection: 'close' },
        },
      };
    }
    throw error;
  }
  const text = raw.toString('utf8');
  // JSON.parse copes with any depth, but recursive checks after it do not: refuse before parsing.
  if (jsonTextTooDeep(text))
    return { refusal: { status: 400, message: 'Invalid request: nested too deeply', code: -32600 } };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { refusal: { status: 400, message: 'Parse error: the body is not JSON', code: -32700 } };
  }
}

/** A JSON-RPC error body with an HTTP status; logged by status only (never headers or body). */
function refuse(res: ServerResponse, refusal: Refusal & { code?: number }, logger?: Logger): void {
  logger?.warn('http_refused', { code: String(refusal.status) });
  res.writeHead(refusal.status, { 'Content-Type': 'application/json', ...refusal.headers });
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: refusal.code ?? -32000, message: refusal.message },
      id: null,
    }),
  );
}
