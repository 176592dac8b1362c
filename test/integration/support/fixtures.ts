/**
 * One `test.extend` for the integration files: the loopback fixture site and a real MCP harness,
 * each started once per file and closed after it, and a fresh session per test.
 *
 * @example
 * import { expect, test } from './support/fixtures.js';
 * test('navigates', async ({ site, harness, session }) => {
 *   await harness.ok('browser_navigate', { ...session, url: site.url('/shop/') });
 * });
 * // A file whose harness needs settings takes its own copy of the fixtures (never `test.override`:
 * // the files of a worker share this module, so an override would reach every later file):
 * import { test as fixtureTest } from './support/fixtures.js';
 * const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, () => ({ maxSessions: 2 }));
 *
 * A fixture starts only when a test (or a suite hook) names it; suite hooks get the file-scoped
 * ones: `test.beforeAll(({ site }) => site.route(...))`.
 *
 * The AgentBrowser files take `agentBrowser` (one per file, closed after it); its settings go on
 * the file's copy the same way:
 * const test = fixtureTest.extend('agentOptions', { scope: 'file' }, () => ({ scope: 'thread' }));
 * The library files take `mesh` (a BrowserMesh with no MCP in front, settings in `meshConfig`), the
 * HTTP files `httpServer` (the Streamable HTTP server over `mesh`, settings in `httpOptions`), and
 * the snapshot files `snapshotEnv` (settings in `snapshotConfig`), as `startSnapshotEnv` builds it.
 */
import { test as base } from 'vitest';
import type { AgentBrowser } from '../../../src/agent/agent-browser.js';
import type { AgentBrowserOptions } from '../../../src/agent/options.js';
import type { Config } from '../../../src/config/load.js';
import { createBrowserMesh } from '../../../src/create-mesh.js';
import { createLogger } from '../../../src/engine/logger.js';
import type { BrowserMesh } from '../../../src/engine/runtime.js';
import type { HttpServerOptions, RunningHttpServer } from '../../../src/mcp/http.js';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.mjs';
import { McpHarness, testConfig } from '../../helpers/harness.js';
import { newSession, type SnapshotEnv } from '../snapshot-support.js';
import { testAgentBrowser } from './agent.js';
import { startTestHttpServer } from './mcp-http.js';

export interface PageAddress {
  sessionId: string;
  pageId: string;
}

/** The snapshot files' setup: the site, a mesh of their own and a first session on it. */
export type SnapshotSetup = Omit<SnapshotEnv, 'close'>;

export const test = base
  /** Settings for the file's harness; a file sets them on its own copy (`fixtureTest.extend`, above). */
  .extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({}))
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('site', { scope: 'file' }, async ({}, { onCleanup }): Promise<FixtureServer> => {
    const site = await startFixtureServer();
    onCleanup(() => site.close());
    return site;
  })
  .extend('harness', { scope: 'file' }, async ({ harnessConfig }, { onCleanup }): Promise<McpHarness> => {
    const harness = await McpHarness.start(harnessConfig);
    onCleanup(() => harness.close());
    return harness;
  })
  /** A new session for the test (closed after it) with its first page. */
  .extend('session', async ({ harness }, { onCleanup }): Promise<PageAddress> => {
    const session = await harness.session();
    onCleanup(async () => {
      await harness.call('browser_session_close', { sessionId: session.sessionId });
    });
    return session;
  })
  /** Settings for the file's AgentBrowser; a file sets them on its own copy, as `harnessConfig`. */
  .extend('agentOptions', { scope: 'file' }, (): AgentBrowserOptions => ({}))
  /** An AgentBrowser for the file (`testAgentBrowser`), launched by its first tool call, closed after the file. */
  .extend('agentBrowser', { scope: 'file' }, ({ agentOptions }, { onCleanup }): AgentBrowser => {
    const browser = testAgentBrowser(agentOptions);
    onCleanup(() => browser.close());
    return browser;
  })
  /** Settings for the file's `mesh`; a file sets them on its own copy, as `harnessConfig`. */
  .extend('meshConfig', { scope: 'file' }, (): Partial<Config> => ({}))
  /** A BrowserMesh for the file, used as a library (no MCP server in front), shut down after it. */
  .extend('mesh', { scope: 'file' }, ({ meshConfig }, { onCleanup }): BrowserMesh => {
    const mesh = createBrowserMesh({ config: testConfig(meshConfig), logger: createLogger('silent') });
    onCleanup(() => mesh.shutdown());
    return mesh;
  })
  /** Settings for the file's `httpServer`; a file sets them on its own copy, as `harnessConfig`. */
  .extend('httpOptions', { scope: 'file' }, (): Partial<HttpServerOptions> => ({}))
  /** The Streamable HTTP server (127.0.0.1, a free port) over the file's `mesh`, closed after the file. */
  .extend(
    'httpServer',
    { scope: 'file' },
    async ({ mesh, httpOptions }, { onCleanup }): Promise<RunningHttpServer> => {
      const server = await startTestHttpServer(mesh, httpOptions);
      onCleanup(() => server.close());
      return server;
    },
  )
  /** Settings for the snapshot files' mesh, over its 30 s timeout (as `startSnapshotEnv` takes them). */
  .extend('snapshotConfig', { scope: 'file' }, (): Partial<Config> => ({}))
  /** What `startSnapshotEnv()` gives, started once per file: the site, a mesh and a first session. */
  .extend(
    'snapshotEnv',
    { scope: 'file' },
    async ({ site, snapshotConfig }, { onCleanup }): Promise<SnapshotSetup> => {
      const mesh = createBrowserMesh({
        config: testConfig({ timeoutMs: 30_000, ...snapshotConfig }),
        logger: createLogger('silent'),
      });
      onCleanup(() => mesh.shutdown());
      return { site, mesh, page: await newSession(mesh) };
    },
  );

export { describe, expect } from 'vitest';
