import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/sequencer.js';

/**
 * How `npm test` is laid out (CONTRIBUTING.md, "Tests"): two groups, each on 2 workers.
 * 1. `unit` and `sandbox`: pure logic and the QuickJS sandbox, no browser.
 * 2. Everything with a browser or a process: `integration` (one Chromium per worker, shared),
 *    `integration-own-browser`, `stress` (bounded form) and `e2e` (the built CLI and the tarball).
 *    The files of a group share its workers, slow-by-design files first (test/sequencer.ts).
 */
const WORKERS = 2;

/**
 * The tests that start real QuickJS sandbox workers (scripts, CPU budgets, leak checks on the
 * debug build): their own project, so the unit run alone takes seconds.
 */
const SANDBOX_TESTS = [
  'src/code-mode/sandbox.test.ts',
  'src/code-mode/sandbox-*.test.ts',
  'src/code-mode/leaks.test.ts',
  'src/code-mode/escape.test.ts',
  'src/code-mode/facade.test.ts',
  'src/code-mode/facade-patterns.test.ts',
  'src/code-mode/nul-safety.test.ts',
];

/**
 * Integration files that need a Chromium of their own, so they do not share the worker's browser
 * (test/integration/support/worker-browser.ts): they kill it, count its launches, watch a cold
 * start, or bind the URL policy's request interceptor to the browser itself (an operator proxy).
 */
const OWN_BROWSER_TESTS = [
  'test/integration/browser-crash.test.ts',
  'test/integration/browser-relaunch.test.ts',
  'test/integration/create-deadline.test.ts',
  'test/integration/user-data-dir.test.ts',
  'test/integration/warm-up.test.ts',
  'test/integration/spare-context.test.ts',
  'test/integration/early-launch.test.ts',
  'test/integration/url-policy-remote.test.ts',
  'test/integration/url-policy-socket-holes.test.ts',
  'test/integration/agent-lifecycle.test.ts',
];

const NO_BROWSER = { maxWorkers: WORKERS, sequence: { groupOrder: 0 } };
const WITH_BROWSER = { maxWorkers: WORKERS, sequence: { groupOrder: 1 } };

/** The CommonJS modules of the command's warm path (src/cli/bin.cts and what it loads) are TypeScript too. */
const oxc = { include: /\.(m?ts|cts|[jt]sx)$/ };

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.mjs'],
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        oxc,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts'],
          exclude: SANDBOX_TESTS,
          testTimeout: 20_000,
          ...NO_BROWSER,
        },
      },
      {
        oxc,
        test: {
          name: 'sandbox',
          include: SANDBOX_TESTS,
          testTimeout: 60_000,
          // A hook's script may pay a fresh worker's cold start (after a test killed one).
          hookTimeout: 60_000,
          ...NO_BROWSER,
        },
      },
      {
        oxc,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/fixtures/**/*.test.ts'],
          exclude: OWN_BROWSER_TESTS,
          // One Selenium Grid for the files that only need a Grid, started by the first that asks.
          globalSetup: ['./test/integration/support/grid-global-setup.ts'],
          // A worker runs its files one after another in one module graph and one Chromium: no
          // re-import of the engine per file, no launch per runtime. A file's own settings go on
          // its own copy of the fixtures (`fixtureTest.extend`), never `test.override`.
          isolate: false,
          setupFiles: ['./test/integration/support/worker-browser.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          ...WITH_BROWSER,
        },
      },
      {
        oxc,
        test: {
          name: 'integration-own-browser',
          include: OWN_BROWSER_TESTS,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          ...WITH_BROWSER,
        },
      },
      {
        oxc,
        test: {
          // The stress harness (docs/reliability.md): a bounded form runs with every `npm test`;
          // `npm run test:stress` runs the long form plus the on-demand checks.
          name: 'stress',
          include: [
            'test/stress/*.test.ts',
            // eslint-disable-next-line no-restricted-properties -- the test runner's switch, not runtime config
            ...(process.env.BROWSERMESH_STRESS === 'long' ? ['test/stress/on-demand/**/*.test.ts'] : []),
          ],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          ...WITH_BROWSER,
        },
      },
      {
        oxc,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          ...WITH_BROWSER,
        },
      },
    ],
  },
});
