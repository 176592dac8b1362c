#!/usr/bin/env node
import { ConfigError, loadConfig, type Config, type LoadedConfig } from '../config/load.js';
import { createLogger, type Logger } from '../engine/logger.js';
import { createBrowserMesh } from '../create-mesh.js';
import type { BrowserMesh } from '../engine/runtime.js';
import { VERSIONS } from '../engine/versions.js';
import { createDashboard } from '../dashboard/handler.js';
import { startDashboardServer } from '../dashboard/server.js';
import { createMcpServer } from '../mcp/server.js';
import { BoundedStdioServerTransport } from '../mcp/stdio-transport.js';
import { helpText } from './help.js';

/** flags → config → start; nothing else. stdout is the protocol's: everything human goes to stderr. */
async function main(): Promise<number | undefined> {
  let loaded: LoadedConfig;
  try {
    loaded = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`browsermesh: invalid configuration: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { config, command } = loaded;
  const out = (line: string): void => void process.stdout.write(line);
  switch (command) {
    case 'help':
      out(helpText());
      return 0;
    case 'version':
      out(`${VERSIONS.browsermesh}\n`);
      return 0;
    case 'doctor':
      return (await import('./doctor.js')).runDoctor(config, out);
    case 'install-browser':
      return (await import('./install-browser.js')).installBrowser(config, out);
    case 'export-state': {
      const { exportState } = await import('./export-state.js');
      return exportState(config, out, (line) => void process.stderr.write(line));
    }
    case 'serve':
      await serve(loaded);
      return undefined;
  }
}

async function serve({ config }: LoadedConfig): Promise<void> {
  const logger = createLogger(config.logLevel);
  const mesh = createBrowserMesh({ config, logger });
  if (config.http) return serveHttp(config, mesh, logger);
  const server = createMcpServer({ mesh, logger, warmUp: config.warmUp });
  const transport = new BoundedStdioServerTransport(config.maxMessageBytes);
  const dashboard = config.dashboard ? await startStdioDashboard(config, mesh, logger) : undefined;
  const stop = stopper(logger, async () => {
    await dashboard?.close().catch(() => undefined);
    await mesh.shutdown().catch(() => undefined);
    await server.close().catch(() => undefined);
  });
  process.stdin.on('end', () => void stop('stdin_closed'));
  process.stdin.on('close', () => void stop('stdin_closed'));
  transport.onclose = () => void stop('transport_closed');

  await server.connect(transport);
  logger.info('ready', { provider: config.provider });
}

/** MCP over Streamable HTTP: one MCP server per client connection, all on one BrowserMesh. */
async function serveHttp(config: Config, mesh: BrowserMesh, logger: Logger): Promise<void> {
  // Loaded only here: the HTTP stack (hono and friends) costs startup time stdio users never need.
  const { startHttpServer } = await import('../mcp/http.js');
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
    },
    createServer: (owner, principal) =>
      createMcpServer({
        mesh,
        logger,
        principal,
        warmUp: config.warmUp,
        ...(owner === undefined ? {} : { owner }),
      }),
    ...(config.dashboard
      ? { dashboard: createDashboard({ mesh, logger, takeover: config.dashboardTakeover }) }
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
  if (config.dashboard)
    process.stderr.write(`browsermesh: dashboard at ${http.url.replace(/\/mcp$/, '/dashboard/')}\n`);
  logger.info('ready', { provider: config.provider, reason: 'http' });
}

/** The stdio server's dashboard on a loopback port; its URL (never the token) goes to stderr. */
async function startStdioDashboard(
  config: Config,
  mesh: BrowserMesh,
  logger: Logger,
): Promise<{ close(): Promise<void> } | undefined> {
  try {
    const dashboard = await startDashboardServer({
      mesh,
      logger,
      port: config.dashboardPort,
      token: config.httpToken,
      takeover: config.dashboardTakeover,
    });
    process.stderr.write(`browsermesh: dashboard at ${dashboard.url}\n`);
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

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`browsermesh: fatal: ${error instanceof Error ? error.name : 'error'}\n`);
    process.exitCode = 1;
  },
);
