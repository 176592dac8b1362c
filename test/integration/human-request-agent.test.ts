/**
 * browser_request_human through AgentBrowser (`dashboard: true`, the tool in `extraTools`): the first
 * call gives the take-over link at once (`waiting`); a person opens it in a real Chromium, signs in
 * on the live image and hands back; a `wait: true` call returns `returned` with the page's title,
 * and the thread's next snapshot shows the signed-in page. The password is in no result.
 */
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../helpers/harness.js';
import { testAgentBrowser, ToolDriver } from './support/agent.js';
import { expect, test } from './support/fixtures.js';
import { LOGIN, PASSWORD, personSignsIn } from './support/human.js';

test('AgentBrowser: the link comes at once, the person signs in, a second call waits', async ({ site }) => {
  site.route('/human-agent/login', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(LOGIN);
  });
  const browser = testAgentBrowser({ dashboard: true });
  const viewer = await chromium.launch({ executablePath: CHROMIUM });
  const results: string[] = [];
  const driver = new ToolDriver(browser, { threadId: 'human' });
  const ok = async <T>(name: Parameters<ToolDriver['ok']>[0], input: Record<string, unknown> = {}) => {
    const result = await driver.ok<T>(name, input);
    results.push(JSON.stringify(result));
    return result;
  };
  try {
    await ok('browser_goto', { url: site.url('/human-agent/login') });
    const reason = 'Sign in for me, please';
    const first = await ok<{ status: string; url: string }>('browser_request_human', { reason });
    expect(first.status).toBe('waiting');
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/#handoff=/);
    const pending = await driver.call('browser_request_human', { reason });
    expect(JSON.stringify(pending)).toContain('HUMAN_REQUEST_PENDING');

    const waited = ok<{ status: string; title: string }>('browser_request_human', {
      wait: true,
      timeoutMs: 120_000,
    });
    await personSignsIn(viewer, first.url, reason);
    expect(await waited).toMatchObject({ status: 'returned', title: 'Home' });
    const snapshot = await ok('browser_snapshot', {});
    expect(JSON.stringify(snapshot)).toContain('Signed in');
    for (const text of results) expect(text).not.toContain(PASSWORD);
  } finally {
    await viewer.close();
    await browser.close();
  }
});
