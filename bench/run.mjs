// The benchmark run: fixture site up, contenders chosen, scenarios in order (one progress line each),
// goals checked, JSON and Markdown written. Everything it starts, it stops — also on Ctrl-C.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { startFixtureServer } from '../test/fixtures/server.mjs';
import { BenchContext } from './lib/context.mjs';
import { CHROMIUM_PATH } from './lib/chromium.mjs';
import { registerBenchRoutes } from './lib/flows.mjs';
import { progress, step } from './lib/progress.mjs';
import { browserMesh, REPO_ROOT } from './peers/browsermesh.mjs';
import { chromeDevtoolsMcp } from './peers/chrome-devtools-mcp.mjs';
import { playwrightMcp } from './peers/playwright-mcp.mjs';
import { playwrightCoreVersion } from './peers/reference.mjs';
import { evaluateGoals } from './report/goals.mjs';
import { renderMarkdown } from './report/markdown.mjs';
import { checkout } from './scenarios/checkout.mjs';
import { cli } from './scenarios/cli.mjs';
import { click } from './scenarios/click.mjs';
import { coldStart } from './scenarios/cold-start.mjs';
import { discovery } from './scenarios/discovery.mjs';
import { find } from './scenarios/find.mjs';
import { navigate } from './scenarios/navigate.mjs';
import { scale } from './scenarios/scale.mjs';
import { snapshot } from './scenarios/snapshot.mjs';
import { waits } from './scenarios/waits.mjs';

/** Every peer adapter; add one here (see docs/benchmarking.md). */
export const PEERS = { 'playwright-mcp': playwrightMcp, 'chrome-devtools-mcp': chromeDevtoolsMcp };
const SCENARIOS = { discovery, coldStart, navigate, snapshot, find, checkout, click, waits, scale, cli };

function quietly(cmd, args) {
  try {
    return execFileSync(cmd, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      cwd: REPO_ROOT,
    }).trim();
  } catch {
    return undefined;
  }
}

function describeRun(options, contenders) {
  return {
    date: new Date().toISOString(),
    quick: options.quick,
    iterations: options.iterations,
    scenarios: options.scenarios,
    node: process.version,
    chromium: quietly(CHROMIUM_PATH, ['--version']) ?? CHROMIUM_PATH,
    playwrightCore: playwrightCoreVersion(),
    commit: quietly('git', ['rev-parse', '--short', 'HEAD']) ?? 'unknown',
    dirty: Boolean(quietly('git', ['status', '--porcelain', '--untracked-files=no'])),
    machine: {
      platform: `${platform()} ${release()}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model?.trim() ?? 'unknown CPU',
      memGiB: Math.round(totalmem() / 2 ** 30),
      loadAvgAtStart: loadavg()[0],
    },
    contenders: contenders.map((c) => ({ id: c.id, label: c.label, version: c.version() })),
  };
}

export async function runBench(options) {
  const started = performance.now();
  const contenders = [browserMesh, ...options.peers.map((id) => PEERS[id])];
  const meta = describeRun(options, contenders);
  progress(`contenders: ${meta.contenders.map((c) => `${c.label} ${c.version}`).join(', ')}`);
  const fixture = await startFixtureServer();
  registerBenchRoutes(fixture);
  const ctx = new BenchContext({ options, fixture, contenders });
  const stop = () => {
    progress('interrupted: closing servers');
    ctx.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const scenarios = {};
  try {
    for (const name of options.scenarios) {
      const scenario = SCENARIOS[name];
      scenarios[name] = await step(scenario.title, () => scenario.run(ctx)).catch((error) => ({
        rows: [],
        error: String(error?.message ?? error),
      }));
    }
  } finally {
    await ctx.close();
    await fixture.close();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }

  meta.machine.loadAvgAtEnd = loadavg()[0];
  const report = { meta: { ...meta, durationS: (performance.now() - started) / 1000 }, scenarios };
  report.goals = evaluateGoals(scenarios);
  writeOut(options.json, `${JSON.stringify(report, null, 2)}\n`);
  progress(`wrote ${options.json}`);
  if (options.markdown) {
    writeOut(options.markdown, renderMarkdown(report));
    progress(`wrote ${options.markdown}`);
  }
  return report;
}

/** Re-checks the goals of a saved run and rewrites its Markdown (after a change to the report code). */
export function rerender(jsonPath, markdownPath) {
  const report = JSON.parse(readFileSync(jsonPath, 'utf8'));
  report.goals = evaluateGoals(report.scenarios);
  writeOut(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  if (markdownPath) writeOut(markdownPath, renderMarkdown(report));
  progress(`re-rendered ${jsonPath}${markdownPath ? ` → ${markdownPath}` : ''}`);
}

function writeOut(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
