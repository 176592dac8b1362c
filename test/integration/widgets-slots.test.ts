/**
 * Text a web component shows through a <slot> is the page's text (visible text, text
 * waits, snapshot names), and clicking the component's inner button by ref is not "covered" by its own
 * shadow host.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';
import { refOf } from './support/refs.js';
import { testAgentBrowser, ToolDriver } from './support/agent.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

describe('MCP', () => {
  test('visible text and a text wait include slotted light-DOM text', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/slots') });
    const { text } = await h.ok<{ text: string }>('browser_visible_text', s);
    expect(text).toContain('Edit profile');
    const waited = await h.ok<{ matched?: string[] }>('browser_wait', {
      ...s,
      text: 'Edit profile',
      timeoutMs: 2000,
    });
    expect(JSON.stringify(waited)).toContain('Edit profile');
  });

  test('clicks the slotted button by ref (the host is not a cover) and reads the dialog text', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/slots') });
    const { snapshot } = await h.ok<{ snapshot: string }>('browser_snapshot', s);
    const ref = refOf(snapshot, /\[button (@e\d+)\] Edit profile/);
    await h.ok('browser_click', { ...s, ref });
    await h.ok('browser_wait', { ...s, text: 'Display name is Ada', timeoutMs: 3000 });
    const { text } = await h.ok<{ text: string }>('browser_visible_text', s);
    expect(text).toContain('opened');
  });
});

describe('code mode and AgentBrowser', () => {
  let browser: AgentBrowser;
  test.afterAll(async () => {
    await browser?.close();
  });

  test('code mode clicks the component by role and reads the slotted text', async () => {
    const result: CallToolResult = await h.call('browser_run', {
      ...s,
      timeoutMs: 30_000,
      code: `
        await page.goto(${JSON.stringify(site.url('/widgets/slots'))});
        await page.getByRole('button', { name: 'Edit profile' }).click();
        await page.getByText('Display name is Ada').waitFor();
        return await page.locator('main').innerText();
      `,
    });
    expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
    expect((result.structuredContent as { value: string }).value).toContain('opened');
  });

  test('AgentBrowser clicks the slotted button by ref and waits for the slotted dialog text', async () => {
    browser = testAgentBrowser();
    const t = new ToolDriver(browser, { threadId: 'slots' });
    await t.ok('browser_goto', { url: site.url('/widgets/slots') });
    await t.ok('browser_wait', { text: 'Edit profile' });
    const { snapshot } = await t.ok<{ snapshot: string }>('browser_snapshot');
    await t.ok('browser_click', { ref: refOf(snapshot, /\[button (@e\d+)\] Edit profile/) });
    await t.ok('browser_wait', { text: 'Display name is Ada' });
    expect(await t.text('status')).toBe('opened');
  });
});
