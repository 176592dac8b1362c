/**
 * The order `npm test` starts files in. Files of one group (`sequence.groupOrder`) share its
 * workers whatever their project, so the files that take longest by design start first, and the
 * shorter ones fill the gaps behind them: a long file started last would run alone at the end.
 * After them: longest first by the last run's results cache, else largest first (a clean clone).
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Slow by design, longest first (seconds on the 2-core machine): hostile pages that spin, the
 * Selenium Grid, sandbox fairness and CPU budgets, the packed tarball, the quick bench, Node 24.
 */
export const SLOW_BY_DESIGN = [
  'test/integration/hostile-loops.test.ts', // 51
  'test/e2e/cli-daemon-trust.test.ts', // 45
  'test/integration/providers-selenium.test.ts', // 42
  'test/integration/drag-sortablejs.test.ts', // 40 (40 paced drags)
  'test/integration/secret-boundary-waits.test.ts', // 38 (its guesses wait out their deadlines)
  'test/integration/replay.test.ts', // 30 (a Playwright Test start)
  'test/integration/providers-playwright.test.ts', // 26 (three run-servers, a remote Chromium)
  'test/integration/locate-in-page.test.ts', // 25
  'test/e2e/bench-quick.test.ts', // 25
  'test/integration/frames-find.test.ts', // 23
  'test/integration/face-contract-cases.test.ts', // 21
  'test/integration/regex-off-loop.test.ts', // 21
  'test/integration/providers-playwright-recovery.test.ts', // 18 (run-servers killed and restarted)
  'test/integration/code-mode-fairness.test.ts', // 16
  'src/code-mode/sandbox-fairness.test.ts', // 17 (the first of the no-browser group)
  'test/integration/export-test-variants.test.ts', // 17
  'test/integration/dashboard.test.ts', // 17
  'test/e2e/pack.test.ts', // 16
  'test/integration/agent-mastra.test.ts', // 13 (and a Node 24 run)
  'test/integration/snapshot-differential-libs.test.ts', // 13
  'test/integration/secret-boundary-property.test.ts', // 11
  'test/e2e/cli-face.test.ts', // 10
];

export default class SlowFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const cache = this.ctx.cache;
    const facts = new Map(
      files.map((spec) => {
        const path = relative(root, spec.moduleId);
        const key = `${spec.project.name}:${path}`;
        const listed = SLOW_BY_DESIGN.indexOf(path);
        return [
          spec,
          {
            listed: listed === -1 ? SLOW_BY_DESIGN.length : listed,
            durationMs: cache.getFileTestResults(key)?.duration,
            size: cache.getFileStats(key)?.size ?? 0,
          },
        ];
      }),
    );
    const order = (a: TestSpecification, b: TestSpecification): number => {
      const x = facts.get(a)!;
      const y = facts.get(b)!;
      if (x.listed !== y.listed) return x.listed - y.listed;
      // Across projects: the last run's durations where both are known, else the larger file.
      if (x.durationMs !== undefined && y.durationMs !== undefined) return y.durationMs - x.durationMs;
      return y.size - x.size;
    };
    return Promise.resolve(
      [...files].sort(
        (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || order(a, b),
      ),
    );
  }
}
