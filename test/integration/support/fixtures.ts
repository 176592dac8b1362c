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
 */
import { test as base } from 'vitest';
import type { Config } from '../../../src/config/load.js';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.mjs';
import { McpHarness } from '../../helpers/harness.js';

export interface PageAddress {
  sessionId: string;
  pageId: string;
}

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
  });

export { describe, expect } from 'vitest';
