import { spawn } from 'node:child_process';
import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM } from '../../helpers/harness.js';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface SpecRun {
  passed: boolean;
  output: string;
}

/** One run of one spec file in a shared `playwright test` start (a Playwright project). */
export interface SpecJob {
  /** The project's name; the result is keyed by it. */
  name: string;
  /** The spec file (in the run's temp folder) this run executes. */
  fileName: string;
  /** Headers the run's browser sends with every request (lets the site serve a variant). */
  headers?: Record<string, string>;
  /** A run that must fail: short action and assertion timeouts, so it fails in seconds. */
  expectFailure?: boolean;
}

/**
 * Runs one generated spec with `@playwright/test` (the dev dependency) in a temp folder: the config
 * the test writes gives Debian's Chromium and --no-sandbox, so the spec itself stays as generated.
 * `expectFailure` shortens the action and assertion timeouts for a run that must fail, so it fails
 * in a few seconds (a run that must pass keeps room for a loaded machine).
 */
export async function runSpec(
  code: string,
  env: Record<string, string> = {},
  {
    fileName = 'exported.spec.ts',
    expectFailure = false,
  }: { fileName?: string; expectFailure?: boolean } = {},
): Promise<SpecRun> {
  const runs = await runSpecs({ [fileName]: code }, [{ name: 'spec', fileName, expectFailure }], env);
  return runs.get('spec')!;
}

/**
 * Several spec runs in ONE `playwright test` start (starting the runner and its browser costs
 * seconds on a loaded machine). Jobs with the same headers and timeouts share a Playwright project
 * (one worker, one browser); the others get a project each. Each job's result says whether all the
 * tests of its file passed in its project, with their errors as output.
 */
export async function runSpecs(
  files: Record<string, string>,
  jobs: SpecJob[],
  env: Record<string, string> = {},
): Promise<Map<string, SpecRun>> {
  const dir = await mkdtemp(join(tmpdir(), 'bm-spec-'));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [fileName, code] of Object.entries(files)) await writeFile(join(dir, fileName), code);
  const report = join(dir, 'report.json');
  const projects = projectsOf(jobs);
  await writeFile(join(dir, 'playwright.config.mjs'), configText(dir, report, [...projects.values()]));
  const { code, output } = await startRunner(dir, env);
  const parsed = await readFile(report, 'utf8').then(
    (text) => JSON.parse(text) as Report,
    () => undefined,
  );
  const results = new Map<string, SpecRun>();
  for (const job of jobs) {
    const project = projects.get(optionsKey(job))!.name;
    const tests = parsed ? testsOf(parsed.suites, project, job.fileName) : [];
    const passed = code !== null && tests.length > 0 && tests.every((t) => t.status === 'expected');
    const errors = tests.flatMap((t) => t.results.flatMap((r) => (r.errors ?? []).map(errorText)));
    results.set(job.name, { passed, output: tests.length > 0 ? errors.join('\n') : output });
  }
  return results;
}

interface Project {
  name: string;
  testMatch: string[];
  expect: { timeout: number };
  use: { actionTimeout: number; extraHTTPHeaders?: Record<string, string> };
}

const optionsKey = (job: SpecJob): string => JSON.stringify([job.headers ?? {}, job.expectFailure ?? false]);

/** One project per set of options, over the files of the jobs that have them. */
function projectsOf(jobs: SpecJob[]): Map<string, Project> {
  const projects = new Map<string, Project>();
  for (const job of jobs) {
    const key = optionsKey(job);
    const known = projects.get(key);
    if (known) {
      known.testMatch.push(`**/${job.fileName}`);
      continue;
    }
    const expectFailure = job.expectFailure ?? false;
    projects.set(key, {
      name: `run-${projects.size + 1}`,
      testMatch: [`**/${job.fileName}`],
      expect: { timeout: expectFailure ? 3_000 : 5_000 },
      // A spec that cannot find its element fails in seconds, not at the test's timeout.
      use: {
        actionTimeout: expectFailure ? 4_000 : 10_000,
        ...(job.headers ? { extraHTTPHeaders: job.headers } : {}),
      },
    });
  }
  return projects;
}

function configText(dir: string, report: string, projects: Project[]): string {
  return `export default {
  testDir: ${JSON.stringify(dir)},
  timeout: 30000,
  workers: 1,
  retries: 0,
  reporter: [['line'], ['json', { outputFile: ${JSON.stringify(report)} }]],
  outputDir: ${JSON.stringify(join(dir, 'results'))},
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: ${JSON.stringify(CHROMIUM)}, args: ['--no-sandbox'] },
  },
  projects: ${JSON.stringify(projects)},
};
`;
}

function startRunner(
  dir: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const bin = join(ROOT, 'node_modules', '.bin', 'playwright');
  return new Promise((done, fail) => {
    const child = spawn(bin, ['test', '-c', join(dir, 'playwright.config.mjs')], {
      cwd: dir,
      env: { ...process.env, CI: '1', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

/** The parts of Playwright's JSON report read here. */
interface ReportError {
  message?: string;
  stack?: string;
  snippet?: string;
}
interface ReportTest {
  projectName: string;
  status: string;
  results: Array<{ errors?: ReportError[] }>;
}
interface ReportSuite {
  specs?: Array<{ file: string; tests: ReportTest[] }>;
  suites?: ReportSuite[];
}
interface Report {
  suites: ReportSuite[];
}

function testsOf(suites: ReportSuite[] | undefined, project: string, file: string): ReportTest[] {
  return (suites ?? []).flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => spec.file === file || spec.file.endsWith(`/${file}`))
      .flatMap((spec) => spec.tests.filter((t) => t.projectName === project)),
    ...testsOf(suite.suites, project, file),
  ]);
}

const errorText = (error: ReportError): string =>
  [error.message, error.snippet, error.stack].filter(Boolean).join('\n');
