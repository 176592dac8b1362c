/**
 * The dashboard files' `test.extend`: a mesh behind the Streamable HTTP server with a token and the
 * dashboard, an MCP client over HTTP (the agent), and a separate "viewer" Chromium that opens the
 * dashboard; each started once per file, only when a test or suite hook names it. Built on
 * `./fixtures.ts`, so `site`, `harness` and `session` are here too.
 *
 * @example
 * import { expect, openDashboard, test as fixtureTest } from './support/dashboard.js';
 * const test = fixtureTest.extend('dashboardSetup', { scope: 'file' }, () => ({ token: TOKEN, takeover: true }));
 * test('shows it', async ({ agent, viewer, dashboardUrl }) => {
 *   const page = await openDashboard(viewer, dashboardUrl, TOKEN);
 * });
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Config } from '../../../src/config/load.js';
import { createBrowserMesh } from '../../../src/create-mesh.js';
import { createDashboard, type Dashboard } from '../../../src/dashboard/handler.js';
import { startDashboardServer, type RunningDashboard } from '../../../src/dashboard/server.js';
import { createLogger } from '../../../src/engine/logger.js';
import type { BrowserMesh } from '../../../src/engine/runtime.js';
import type { HttpServerOptions, RunningHttpServer } from '../../../src/mcp/http.js';
import { CHROMIUM, testConfig } from '../../helpers/harness.js';
import { test as base } from './fixtures.js';
import { connectHttp, ok, startTestHttpServer, type HttpClient } from './mcp-http.js';

/** How a file's dashboard is set up; a file sets it on its own copy (`fixtureTest.extend`, above). */
export interface DashboardSetup {
  /** The operator's bearer token for the HTTP server and its dashboard ('' = none). */
  token: string;
  takeover: boolean;
  /** Other principals' tokens (the tokens file). */
  tokens?: HttpServerOptions['tokens'];
  limits?: HttpServerOptions['limits'];
  maxStreamsPerPrincipal?: number;
  /** Settings of the mesh behind the HTTP server. */
  config?: Partial<Config>;
}

const silent = createLogger('silent');

export const test = base
  .extend('dashboardSetup', { scope: 'file' }, (): DashboardSetup => ({
    token: 'dashboard-token-0123456789abcdef',
    takeover: false,
  }))
  .extend('mesh', { scope: 'file' }, async ({ dashboardSetup }, { onCleanup }): Promise<BrowserMesh> => {
    const mesh = createBrowserMesh({ config: testConfig(dashboardSetup.config), logger: silent });
    onCleanup(() => mesh.shutdown());
    return mesh;
  })
  .extend('dashboard', { scope: 'file' }, ({ mesh, dashboardSetup }): Dashboard => {
    const { takeover, maxStreamsPerPrincipal } = dashboardSetup;
    return createDashboard({
      mesh,
      logger: silent,
      takeover,
      ...(maxStreamsPerPrincipal === undefined ? {} : { maxStreamsPerPrincipal }),
    });
  })
  .extend(
    'server',
    { scope: 'file' },
    async ({ mesh, dashboard, dashboardSetup }, { onCleanup }): Promise<RunningHttpServer> => {
      const { token, tokens, limits } = dashboardSetup;
      const server = await startTestHttpServer(mesh, {
        token,
        dashboard,
        ...(tokens === undefined ? {} : { tokens }),
        ...(limits === undefined ? {} : { limits }),
      });
      onCleanup(() => server.close());
      return server;
    },
  )
  /** The dashboard's address on the HTTP server, ending in `/dashboard/`. */
  .extend('dashboardUrl', { scope: 'file' }, ({ server }): string =>
    server.url.replace(/\/mcp$/, '/dashboard/'),
  )
  /** An MCP client over HTTP with the operator's token. */
  .extend(
    'agent',
    { scope: 'file' },
    async ({ server, dashboardSetup }, { onCleanup }): Promise<HttpClient> => {
      const agent = await connectHttp(server.url, { token: dashboardSetup.token });
      onCleanup(() => agent.client.close());
      return agent;
    },
  )
  /** The Chromium a person would watch the dashboard in; not the one the sessions run in. */
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('viewer', { scope: 'file' }, async ({}, { onCleanup }): Promise<Browser> => {
    const viewer = await chromium.launch({ executablePath: CHROMIUM });
    onCleanup(() => viewer.close());
    return viewer;
  })
  /** The stdio user's dashboard: its own loopback port, over the file's `harness` mesh. */
  .extend(
    'ownDashboard',
    { scope: 'file' },
    async ({ harness, dashboardSetup }, { onCleanup }): Promise<RunningDashboard> => {
      const { token, takeover, maxStreamsPerPrincipal } = dashboardSetup;
      const own = await startDashboardServer({
        mesh: harness.mesh,
        logger: silent,
        port: 0,
        token,
        takeover,
        ...(maxStreamsPerPrincipal === undefined ? {} : { maxStreamsPerPrincipal }),
      });
      onCleanup(() => own.close());
      return own;
    },
  );

export type SessionIds = { sessionId: string; pageId: string };

type Created = { session: { sessionId: string }; initialPage: { pageId: string } };

/** Creates a session over MCP (HTTP) and, given a URL, navigates its first page there. */
export async function createSession(
  agent: HttpClient,
  args: { name: string; metadata?: Record<string, string> },
  url?: string,
): Promise<SessionIds> {
  const created = await ok<Created>(agent.client, 'browser_session_create', args);
  const ids = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
  if (url !== undefined) await ok(agent.client, 'browser_navigate', { ...ids, url });
  return ids;
}

/** A new viewer tab on the dashboard, the token in the fragment (the shell reads and drops it). */
export async function openDashboard(
  viewer: Browser,
  dashboardUrl: string,
  token: string,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const page = await viewer.newPage(viewport === undefined ? {} : { viewport });
  await page.goto(`${dashboardUrl}#token=${token}`);
  return page;
}

/** Waits until the watched page's live image has shown at least `count` frames. */
export async function waitForFrames(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => Number(document.querySelector('.live img')?.getAttribute('data-frame-count')) >= n,
    count,
  );
}

export { describe, expect } from 'vitest';
