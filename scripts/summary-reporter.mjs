/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, after the run, so that any CI that
 * reads closing lines can count the tests whatever the runner.
 */
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
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
