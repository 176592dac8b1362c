import { defineConfig } from 'vitest/config';

/**
 * The tests that start real QuickJS sandbox workers (scripts, CPU budgets, leak checks on the
 * debug build): slow, so they have their own project.
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

/** The CommonJS modules of the command's warm path (src/cli/bin.cts and what it loads) are TypeScript too. */
const oxc = { include: /\.(m?ts|cts|[jt]sx)$/ };

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.mjs'],
    projects: [
      {
        oxc,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts'],
          // The QuickJS sandbox tests spin real workers for minutes: their own project, so the
          // unit run takes seconds. `npm test` (scripts/test.mjs) runs every project.
          exclude: SANDBOX_TESTS,
          testTimeout: 20_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        oxc,
        test: {
          name: 'sandbox',
          include: SANDBOX_TESTS,
          testTimeout: 60_000,
          maxWorkers: 1,
          sequence: { groupOrder: 0 },
        },
      },
      {
        oxc,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/fixtures/**/*.test.ts'],
          // One Selenium Grid for the files that only need a Grid, started by the first that asks.
          globalSetup: ['./test/integration/support/grid-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Chromium-heavy files share 2 cores: run a couple at a time, not one per core.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
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
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        oxc,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
