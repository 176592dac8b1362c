/**
 * `browser_run` (code mode) through AgentBrowser: the MCP tool's batch and sandbox, aimed at the
 * thread's current tab. One call logs in to the shop (actions), one reads the result (code).
 */
import { describe, expect, test } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { ToolDriver } from './support/agent.js';

let site: FixtureServer;
let browser: AgentBrowser;

// The file's site and AgentBrowser come from the shared fixtures.
test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  browser = agentBrowser;
});

describe('browser_run', () => {
  test("runs a batch of actions on the thread's current tab in one call", async () => {
    const t = new ToolDriver(browser, { threadId: 'run-actions' });
    const result = await t.ok<{
      completed: number;
      total: number;
      url: string;
      results?: Array<{ snapshot?: string }>;
    }>('browser_run', {
      actions: [
        { action: 'goto', url: site.url('/shop/login') },
        { action: 'fill', locator: { label: 'Username' }, value: 'buyer' },
        { action: 'fill', locator: { label: 'Password' }, value: 'buyer-pass' },
        { action: 'click', locator: { role: 'button', name: 'Sign in' } },
        { action: 'snapshot', interactiveOnly: true },
      ],
    });
    expect(result).toMatchObject({ completed: 5, total: 5, url: site.url('/shop/account') });
    // The model gets step snapshots as plain text after the JSON line.
    const [content] = t.tool('browser_run').toModelContent(result);
    expect(content?.type === 'text' ? content.text : '').toMatch(/# step 4 snapshot\n\[document\]/);
    expect(await t.text('signed-in-as')).toBe('Signed in as buyer');
  });

  test('runs a Playwright-style script in the sandbox; only its return value and logs come back', async () => {
    const t = new ToolDriver(browser, { threadId: 'run-code' });
    await t.ok('browser_goto', { url: site.url('/actions/buttons') });
    const result = await t.ok<{ value: unknown; logs: string[] }>('browser_run', {
      code: "await page.getByRole('button', { name: 'Increment' }).click();\nconsole.log('clicked');\nreturn await page.locator('#count').textContent();",
      timeout: 20_000,
    });
    expect(result).toMatchObject({ value: 'Count: 1', logs: ['clicked'] });
    const failed = await t.fails('browser_run', { code: 'await page.nope();' });
    expect(failed.code).toBe('SCRIPT_ERROR');
    expect((await t.fails('browser_run', {})).code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_run', { code: 'return 1', sessionId: 's_x' })).code).toBe(
      'INVALID_ARGUMENT',
    );
  });
});
