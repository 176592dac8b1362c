import { spawn } from 'node:child_process';
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM } from '../../helpers/harness.js';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface SpecRun {
  passed: boolean;
  output: string;
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
  const actionTimeout = expectFailure ? 4_000 : 10_000;
  const expectTimeout = expectFailure ? 3_000 : 5_000;
  const dir = await mkdtemp(join(tmpdir(), 'bm-spec-'));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, fileName), code);
  const config = `export default {
  testDir: ${JSON.stringify(dir)},
  timeout: 30000,
  expect: { timeout: ${expectTimeout} },
  workers: 1,
  retries: 0,
  reporter: 'line',
  outputDir: ${JSON.stringify(join(dir, 'results'))},
  use: {
    browserName: 'chromium',
    headless: true,
    // A spec that cannot find its element fails in seconds, not at the test's timeout.
    actionTimeout: ${actionTimeout},
    launchOptions: { executablePath: ${JSON.stringify(CHROMIUM)}, args: ['--no-sandbox'] },
  },
};
`;
  await writeFile(join(dir, 'playwright.config.mjs'), config);
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
    child.on('close', (code) => done({ passed: code === 0, output }));
  });
}
