/**
 * `browsermesh handoff "reason"` (the shell face of browser_request_human): with the daemon started
 * with --dashboard, the command prints the take-over link at once; a person opens it in a real
 * Chromium, signs in on the live image and hands back; `handoff --wait` returns `returned` with the
 * page's title, and the next snapshot shows the signed-in page. The password is in no output.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { CHROMIUM } from '../helpers/harness.js';
import { LOGIN, PASSWORD, personSignsIn } from '../integration/support/human.js';
import { shell, type Shell } from './cli-face-support.js';

let site: FixtureServer;
let viewer: Browser;
let sh: Shell;

beforeAll(async () => {
  site = await startFixtureServer();
  site.route('/human-cli/login', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(LOGIN);
  });
  viewer = await chromium.launch({ executablePath: CHROMIUM });
  sh = shell({ BROWSERMESH_DASHBOARD: 'true' });
});
afterAll(async () => {
  await sh.cleanup();
  await viewer.close();
  await site.close();
});

it('prints the link at once; --wait waits for the hand-back; the password is in no output', async () => {
  const outputs: string[] = [];
  const bm = async (args: string[]) => {
    const run = await sh.bm(args);
    outputs.push(run.stdout, run.stderr);
    return run;
  };
  expect((await bm(['open', site.url('/human-cli/login')])).status).toBe(0);
  const reason = 'Sign in on the shop, please';
  const asked = await bm(['handoff', reason]);
  expect(asked.status).toBe(0);
  expect(asked.stdout).toContain('"status":"waiting"');
  const url = /"url":"([^"]+)"/.exec(asked.stdout)?.[1] ?? '';
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/#handoff=/);

  const again = await bm(['handoff', reason]);
  expect(again.status).not.toBe(0);
  expect(again.stdout + again.stderr).toContain('HUMAN_REQUEST_PENDING');

  const waited = bm(['handoff', '--wait', '--timeout', '120000']);
  await personSignsIn(viewer, url, reason);
  const done = await waited;
  expect(done.status).toBe(0);
  expect(done.stdout).toContain('"status":"returned"');
  expect(done.stdout).toContain('"title":"Home"');
  expect((await bm(['snapshot'])).stdout).toContain('Signed in');
  for (const text of outputs) expect(text).not.toContain(PASSWORD);
});
