import { createBrowserMesh } from '../create-mesh.js';
import type { Config, LoadedConfig } from '../config/load.js';
import { createLogger, type Logger } from '../engine/logger.js';
import type { BrowserMesh } from '../engine/runtime.js';
import { createMcpServer } from '../mcp/server.js';
import { BoundedStdioServerTransport } from '../mcp/stdio-transport.js';

/**
 * The server proper, loaded by main.ts only for `serve` and, on stdio, only once the transport is
 * already reading (and answering `initialize`): everything imported here is what that answer does
 * not wait for.
 */

/** A stdio transport main.ts started early, and whether it has answered `initialize` yet. */
export interface EarlyStdio {
  transport: BoundedStdioServerTransport;
  /** Resolves once `initialize` was answered (never, if the client does not send one). */
  initialized: Promise<void>;
  /** Resolves at the first tools/list read before the server was up (never, if none was). */
  toolsListed: Promise<void>;
  /** Resolves when another request came first, before any tools/list (never, otherwise). */
  otherFirst: Promise<void>;
}

export async function serve({ config }: LoadedConfig, early?: EarlyStdio): Promise<void> {
  const logger = createLogger(config.logLevel);
  const mesh = createBrowserMesh({ config, logger });
  if (config.http) return serveHttp(config, mesh, logger);
  const transport = early?.transport ?? new BoundedStdioServerTransport(config.maxMessageBytes);
  // The client is listing the tools, so it will use them: the browser launch need not wait for the
  // SDK and the tools. Not at initialize: a one-shot call (browser_runtime_info from the Inspector
  // CLI) would start a Chromium it never needs.
  if (config.warmUp) void early?.toolsListed.then(() => mesh.warmUp());
  const dashboard = config.dashboard ? await startStdioDashboard(config, mesh, logger) : undefined;
  // The address a person opens (with the dashboard's own token, if it made one): the agent says it.
  const server = createMcpServer({
    mesh,
    logger,
    warmUp: config.warmUp,
    dashboardUrl: () => dashboard?.openUrl,
  });
  const stop = stopper(logger, async () => {
    await dashboard?.close().catch(() => undefined);
    await mesh.shutdown().catch(() => undefined);
    await server.close().catch(() => undefined);
  });
  process.stdin.on('end', () => void stop('stdin_closed'));
  process.stdin.on('close', () => void stop('stdin_closed'));
  transport.onclose = () => void stop('transport_closed');

  await server.connect(transport);
  // A client that closed stdin before the listeners above existed (while playwright-core, the launch
  // begun at its tools/list or the server's own modules loaded) gets no second 'end': stop now.
  if (process.stdin.readableEnded) void stop('stdin_closed');
  logger.info('ready', { provider: config.provider });
}

/** MCP over Streamable HTTP: one MCP server per client connection, all on one BrowserMesh. */
async function serveHttp(config: Config, mesh: BrowserMesh, logger: Logger): Promise<void> {
  // Loaded only here: the HTTP stack (hono and friends) costs startup time stdio users never need.
  const { startHttpServer } = await import('../mcp/http.js');
  // Known once the server listens (port 0 picks one); browser_runtime_info gives it to the agent.
  let dashboardUrl: string | undefined;
  const http = await startHttpServer({
    mesh,
    logger,
    host: config.httpHost,
    port: config.httpPort,
    token: config.httpToken,
    tokens: config.httpTokens,
    allowedHosts: config.httpAllowedHosts,
    sharedSessions: config.sharedSessions,
    disconnectGraceMs: config.disconnectGraceMs,
    maxBodyBytes: config.httpMaxBodyBytes,
    limits: {
      maxClients: config.httpMaxClients,
      headersTimeoutMs: config.httpHeadersTimeoutMs,
      bodyTimeoutMs: config.httpBodyTimeoutMs,
      ratePerMinute: config.httpRateLimit,
      clientIdleMs: config.httpClientIdleMs,
    },
    createServer: (owner, principal) =>
      createMcpServer({
        mesh,
        logger,
        principal,
        warmUp: config.warmUp,
        ...(owner === undefined ? {} : { owner }),
        ...(config.dashboard ? { dashboardUrl: () => dashboardUrl } : {}),
      }),
    ...(config.dashboard
      ? {
          dashboard: (await import('../dashboard/handler.js')).createDashboard({
            mesh,
            logger,
            takeover: config.dashboardTakeover,
            maxStreamsPerPrincipal: config.dashboardMaxStreams,
          }),
        }
      : {}),
  }).catch((error: unknown) => {
    // EADDRINUSE, EACCES, EADDRNOTAVAIL: say which, not a stack.
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    process.stderr.write(`browsermesh: cannot listen on ${config.httpHost}:${config.httpPort} (${code})\n`);
    process.exit(1);
  });
  stopper(logger, async () => {
    await http.close().catch(() => undefined);
    await mesh.shutdown().catch(() => undefined);
  });
  // The one human line: where to point clients (the URL carries no secret).
  process.stderr.write(`browsermesh: MCP over Streamable HTTP at ${http.url}\n`);
  if (config.dashboard) {
    dashboardUrl = http.url.replace(/\/mcp$/, '/dashboard/');
    const open = config.httpToken === '' && config.httpTokens.length === 0 ? '' : ` ${TOKEN_HINT}`;
    process.stderr.write(`browsermesh: dashboard at ${dashboardUrl}${open}\n`);
  }
  logger.info('ready', { provider: config.provider, reason: 'http' });
}

/** Where the dashboard's token comes from, never the token itself. */
const TOKEN_HINT = '(open it as …/dashboard/#token=<your MCP bearer token, e.g. BROWSERMESH_HTTP_TOKEN>)';

/**
 * The stdio server's dashboard on a loopback port; the address to open goes to stderr: with its own
 * random token in the fragment, or, under the operator's token, without it (the hint says which).
 */
async function startStdioDashboard(
  config: Config,
  mesh: BrowserMesh,
  logger: Logger,
): Promise<{ openUrl: string; close(): Promise<void> } | undefined> {
  try {
    const { startDashboardServer, dashboardSettings } = await import('../dashboard/server.js');
    const dashboard = await startDashboardServer({ mesh, logger, ...dashboardSettings(config) });
    process.stderr.write(
      `browsermesh: dashboard at ${dashboard.openUrl}${config.httpToken === '' ? '' : ` ${TOKEN_HINT}`}\n`,
    );
    return dashboard;
  } catch (error) {
    // The MCP server still works without its dashboard: say why, do not exit.
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    process.stderr.write(
      `browsermesh: cannot start the dashboard on port ${config.dashboardPort} (${code})\n`,
    );
    return undefined;
  }
}

/** SIGINT/SIGTERM (and the returned trigger) run `shutdown` once, then exit; a hung shutdown is cut at 10 s. */
function stopper(logger: Logger, shutdown: () => Promise<void>): (reason: string) => Promise<void> {
  let stopping = false;
  const stop = async (reason: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info('shutdown', { reason });
    const force = setTimeout(() => process.exit(0), 10_000);
    force.unref();
    await shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return stop;
}
