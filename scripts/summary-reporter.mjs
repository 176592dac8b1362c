/**
 * Closes the run with what CI and the next person need:
 * - the ten slowest test files with their project, so the next person sees where the time goes;
 * - one plain closing line, `N passed, N failed, N skipped`, so that any CI that reads closing
 *   lines can count the tests whatever the runner.
 */
import { relative } from 'node:path';

const SLOWEST_SHOWN = 10;

export default class SummaryReporter {
  onTestRunEnd(testModules) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file whose hooks failed (beforeAll/afterAll) fails the run even when its tests passed: count it.
      const testsFailed = [...module.children.allTests()].some((test) => test.result().state === 'failed');
      if (module.state() === 'failed' && !testsFailed) failed++;
    }
    process.stdout.write(slowestFiles(testModules));
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

/** A file's own time: set-up, import (collect) and its tests and hooks. */
function fileMs(diagnostic) {
  const { prepareDuration, setupDuration, collectDuration, duration } = diagnostic;
  return (prepareDuration ?? 0) + (setupDuration ?? 0) + (collectDuration ?? 0) + (duration ?? 0);
}

/** A table of the slowest files: seconds, project, path. Empty for a run of a few files. */
function slowestFiles(testModules) {
  if (testModules.length <= SLOWEST_SHOWN) return '';
  const rows = testModules
    .map((module) => ({
      seconds: fileMs(module.diagnostic()) / 1000,
      project: module.project.name,
      file: relative(process.cwd(), module.moduleId),
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_SHOWN);
  const width = Math.max(...rows.map((row) => row.project.length));
  const lines = rows.map(
    (row) => `${row.seconds.toFixed(1).padStart(7)} s  ${row.project.padEnd(width)}  ${row.file}`,
  );
  return `\nThe ${SLOWEST_SHOWN} slowest test files:\n${lines.join('\n')}\n`;
}
