import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/load.js';
import type { Logger } from '../engine/logger.js';
import type { BrowserMesh } from '../engine/runtime.js';
import { createPolicy } from '../mcp/http-guard.js';
import { createDashboard, DASHBOARD_PATH } from './handler.js';

export interface DashboardServerOptions {
  mesh: BrowserMesh;
  logger: Logger;
  /** Loopback only: the stdio server has no other network face. 0 picks a free port. */
  port: number;
  /** Bearer token the dashboard's API requires ('' = none, loopback only). */
  token: string;
  takeover: boolean;
  /** Event streams one principal may hold open at once (see DashboardOptions). */
  maxStreamsPerPrincipal?: number;
}

export interface RunningDashboard {
  /** e.g. http://127.0.0.1:8941/dashboard/ (never carries the token) */
  url: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/**
 * The dashboard on its own loopback port, for stdio users (`--dashboard`). Same Host/Origin guard
 * and token rule as the HTTP server; nothing but /dashboard is served.
 */
/** The loopback dashboard's settings from the configuration (the stdio server's and the CLI daemon's). */
export function dashboardSettings(
  config: Config,
): Pick<DashboardServerOptions, 'port' | 'token' | 'takeover' | 'maxStreamsPerPrincipal'> {
  return {
    port: config.dashboardPort,
    token: config.httpToken,
    takeover: config.dashboardTakeover,
    maxStreamsPerPrincipal: config.dashboardMaxStreams,
  };
}

export async function startDashboardServer(options: DashboardServerOptions): Promise<RunningDashboard> {
  const policy = createPolicy({ host: HOST, allowedHosts: [], token: options.token });
  const dashboard = createDashboard(options);
  const http = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname !== DASHBOARD_PATH && !pathname.startsWith(`${DASHBOARD_PATH}/`)) {
      res.writeHead(302, { Location: `${DASHBOARD_PATH}/` });
      return void res.end();
    }
    dashboard.handle(req, res, policy).catch(() => {
      options.logger.error('dashboard_request_failed', { reason: 'internal' });
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, HOST, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${HOST}:${port}${DASHBOARD_PATH}/`,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        dashboard.close();
        http.close(() => resolve());
        http.closeAllConnections();
      });
      return closing;
    },
  };
}
