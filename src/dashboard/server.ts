import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/load.js';
import type { Logger } from '../engine/logger.js';
import type { BrowserMesh } from '../engine/runtime.js';
import { createPolicy } from '../http/request-guard.js';
import { createDashboard, DASHBOARD_PATH } from './handler.js';

export interface DashboardServerOptions {
  mesh: BrowserMesh;
  logger: Logger;
  /** Loopback only: the stdio server has no other network face. 0 picks a free port. */
  port: number;
  /** Bearer token the dashboard's API requires ('' = none, loopback only). */
  token: string;
  /** The token was made for this dashboard alone (`dashboardSettings`): its `openUrl` carries it. */
  ownToken?: boolean;
  takeover: boolean;
  /** Event streams one principal may hold open at once (see DashboardOptions). */
  maxStreamsPerPrincipal?: number;
}

export interface RunningDashboard {
  /** e.g. http://127.0.0.1:8941/dashboard/ (never carries the token) */
  url: string;
  /**
   * The address a person opens: `url`, with the dashboard's own token in its fragment
   * (`#token=…`, never sent to a server) when it made one; never the operator's MCP token.
   */
  openUrl: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/**
 * The loopback dashboard's settings from the configuration (the stdio server's and the CLI daemon's).
 * Without an operator token (`BROWSERMESH_HTTP_TOKEN`) the dashboard makes one of its own, random
 * per start: a loopback port is open to every local user, and the token keeps the others out
 * (docs/security.md, "The shell daemon and other local users").
 */
export function dashboardSettings(
  config: Config,
): Pick<DashboardServerOptions, 'port' | 'token' | 'ownToken' | 'takeover' | 'maxStreamsPerPrincipal'> {
  const own = config.httpToken === '';
  return {
    port: config.dashboardPort,
    token: own ? newDashboardToken() : config.httpToken,
    ownToken: own,
    takeover: config.dashboardTakeover,
    maxStreamsPerPrincipal: config.dashboardMaxStreams,
  };
}

/** A dashboard's own random token, as long as a take-over link's. */
export function newDashboardToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The dashboard on its own loopback port, for stdio users (`--dashboard`). Same Host/Origin guard
 * and token rule as the HTTP server; nothing but /dashboard is served.
 */
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
  const url = `http://${HOST}:${port}${DASHBOARD_PATH}/`;
  let closing: Promise<void> | undefined;
  return {
    url,
    openUrl: options.ownToken && options.token !== '' ? `${url}#token=${options.token}` : url,
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
