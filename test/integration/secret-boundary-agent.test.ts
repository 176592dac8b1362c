/**
 * AgentBrowser's tab titles are redacted before they are cut: a page that puts a secret into a long
 * title shows none of it in browser_tabs or getThreadState, not even the head a 200-character cut
 * would leave before its ellipsis (docs/security.md, "The sandbox boundary", Cuts).
 */
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { ToolDriver } from './support/agent.js';
import { exposesSecret, SECRET_PAGE } from './support/secret-boundary.js';

const SECRET = 'tokCANARY-agent-4Zq';
let site: FixtureServer;
let browser: AgentBrowser;

const test = fixtureTest.extend('agentOptions', { scope: 'file' }, () => ({
  secrets: { PASS: SECRET },
}));

test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  site.route('/sb-agent/form', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(SECRET_PAGE);
  });
  browser = agentBrowser;
});

describe('AgentBrowser titles and the secrets boundary', () => {
  test('a title holding a secret past the cut shows none of it in the tabs or the thread state', async () => {
    const t = new ToolDriver(browser, { threadId: 'sb-agent-title' });
    await t.ok('browser_goto', { url: site.url('/sb-agent/form') });
    await t.ok('browser_type', { ref: await t.ref('textbox', 'User'), text: '{{secret:PASS}}' });
    const tabs = await t.ok<{ tabs: Array<{ title: string }> }>('browser_tabs', { action: 'list' });
    const state = await browser.getThreadState('sb-agent-title');
    const titles = [...tabs.tabs.map((tab) => tab.title), ...(state?.tabs ?? []).map((tab) => tab.title)];
    expect(titles).toHaveLength(2);
    for (const title of titles) expect(title.endsWith('…')).toBe(true);
    expect(exposesSecret(titles, SECRET, 4)).toBe(false);
  });
});
