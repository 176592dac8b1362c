/**
 * One `test.extend` for the integration files: the loopback fixture site and a real MCP harness,
 * each started once per file and closed after it, and a fresh session per test.
 *
 * @example
 * import { test } from '../helpers/fixtures.js';
 * test('navigates', async ({ site, harness, session }) => {
 *   await harness.ok('browser_navigate', { ...session, url: site.url('/shop/') });
 * });
 */
import { test as base } from 'vitest';
import type { Config } from '../../src/config/load.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from './harness.js';

export interface PageAddress {
  sessionId: string;
  pageId: string;
}

export interface IntegrationFixtures {
  /** Settings for the file's harness; override with `test.scoped({ harnessConfig: {...} })`. */
  harnessConfig: Partial<Config>;
  site: FixtureServer;
  harness: McpHarness;
  /** A new session for the test (closed after it) with its first page. */
  session: PageAddress;
}

export const test = base.extend<IntegrationFixtures>({
  harnessConfig: [{}, { scope: 'file' }],
  site: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const site = await startFixtureServer();
      await use(site);
      await site.close();
    },
    { scope: 'file' },
  ],
  harness: [
    async ({ harnessConfig }, use) => {
      const harness = await McpHarness.start(harnessConfig);
      await use(harness);
      await harness.close();
    },
    { scope: 'file' },
  ],
  session: async ({ harness }, use) => {
    const session = await harness.session();
    await use(session);
    await harness.call('browser_session_close', { sessionId: session.sessionId });
  },
});

export { describe, expect } from 'vitest';
