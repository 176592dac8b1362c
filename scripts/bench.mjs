#!/usr/bin/env node
// `npm run bench`: BrowserMesh measured side by side with @playwright/mcp and chrome-devtools-mcp on
// the fixture site. Not part of the test suite (long and timing-noisy); `--quick` is the smoke mode.
// Progress goes to stderr; a goal summary to stdout. See docs/benchmarking.md.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ALL_SCENARIOS, parseOptions, USAGE } from '../bench/lib/options.mjs';
import { CLI_PATH, REPO_ROOT } from '../bench/peers/browsermesh.mjs';
import { procAvailable } from '../bench/lib/proc.mjs';

let options;
try {
  options = parseOptions(process.argv.slice(2), REPO_ROOT);
} catch (error) {
  process.stderr.write(`bench: ${error.message}\n${USAGE}\n`);
  process.exit(2);
}
if (options.help) {
  process.stdout.write(`${USAGE}\n\nScenarios run by default: ${ALL_SCENARIOS.join(', ')}.\n`);
  process.exit(0);
}
if (options.fromJson) {
  const { rerender } = await import('../bench/run.mjs');
  rerender(options.fromJson, options.markdown);
  process.exit(0);
}
if (options.scenarios.includes('scale') && !procAvailable()) {
  process.stderr.write('bench: the scale scenario reads /proc (Linux); run without it: --scenarios ...\n');
  process.exit(2);
}
if (options.build) {
  process.stderr.write('[bench] npm run build\n');
  const built = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0) {
    process.stderr.write(
      'bench: the build failed; fix it or pass --no-build to measure the existing dist/\n',
    );
    process.exit(1);
  }
}
if (!existsSync(CLI_PATH)) {
  process.stderr.write(`bench: ${CLI_PATH} is missing; run \`npm run build\` first\n`);
  process.exit(1);
}

const { runBench } = await import('../bench/run.mjs');
const { measuredText } = await import('../bench/report/markdown.mjs');
const report = await runBench(options);
// A goal whose rows are absent says "… not measured"; in a run of a few scenarios those are the goals
// of the scenarios left out, so they are counted, not listed (the Markdown still lists every goal).
const absent = (goal) => goal.met === null && / not measured$/.test(goal.note ?? '');
const subset = options.scenarios.length < ALL_SCENARIOS.length;
const skipped = subset ? report.goals.filter(absent).length : 0;
for (const goal of report.goals) {
  if (subset && absent(goal)) continue;
  const mark = goal.met === true ? 'met   ' : goal.met === false ? 'MISSED' : 'n/a   ';
  process.stdout.write(`${mark} ${goal.goal}: ${measuredText(goal)} (target ${goal.target})\n`);
}
if (skipped) process.stdout.write(`(${skipped} goals of scenarios not in this run are not listed)\n`);
const failed = Object.entries(report.scenarios).filter(([, result]) => result.error);
for (const [name, result] of failed)
  process.stderr.write(`bench: scenario ${name} failed: ${result.error}\n`);
process.exit(failed.length ? 1 : 0);
