/**
 * What the MCP tools already do, on the other faces: code mode's page.snapshot() shows ARIA order and
 * state, code mode's full-page screenshot over the limits is scaled down, not refused, and
 * AgentBrowser's browser_evaluate error carries the exception's own message.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../src/config/load.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { testAgentBrowser, ToolDriver } from './support/agent.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  screenshotMaxDimension: 2000,
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  site.route('/faces/tall', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Tall</title><body style="margin:0"><div style="height:6000px">top</div>');
  });
  h = harness;
  s = await h.session();
});

const run = (code: string): Promise<CallToolResult> =>
  h.call('browser_run', { ...s, code, timeoutMs: 45_000 });
const valueOf = <T>(result: CallToolResult): T => {
  expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
  return (result.structuredContent as { value: T }).value;
};

describe('code mode', () => {
  test('page.snapshot() lists grid rows in aria-rowindex order with the sort a click applied', async () => {
    const text = valueOf<string>(
      await run(`
        await page.goto(${JSON.stringify(site.url('/real/grid'))});
        await page.getByRole('button', { name: 'Name' }).click();
        return await page.snapshot();
      `),
    );
    const rows = [...text.matchAll(/\[row row=\d+\] @e\d+ (\w+) \|/g)].map((m) => m[1]);
    expect(rows).toEqual(['Abe', 'Bea', 'Cleo']);
    expect(text).toContain('[columnheader sort=ascending]');
    expect(text).toMatch(/\[slider [^\]]*value=7\] Volume/);
    expect(text).toMatch(/\[region (@e\d+ )?busy\] Results/);
  });

  test('page.screenshot({ fullPage: true }) over the limits is scaled down and says so', async () => {
    const shot = valueOf<{ width: number; height: number; scale?: number; clipped?: boolean }>(
      await run(`
        await page.goto(${JSON.stringify(site.url('/faces/tall'))});
        return await page.screenshot({ fullPage: true, type: 'jpeg' });
      `),
    );
    expect(shot.scale).toBeGreaterThan(0.25);
    expect(shot.scale).toBeLessThan(1);
    expect(shot.clipped).toBe(false);
    expect(shot.height).toBeLessThanOrEqual(2000);
  });
});

describe('AgentBrowser', () => {
  let browser: AgentBrowser;
  test.afterAll(async () => {
    await browser?.close();
  });

  test("browser_evaluate's error carries the exception's own message", async () => {
    browser = testAgentBrowser();
    const t = new ToolDriver(browser, { threadId: 'faces' });
    await t.ok('browser_goto', { url: site.url('/quiet') });
    const missing = await t.fails('browser_evaluate', { script: 'nonExistentVariable + 1' });
    expect(missing.code).toBe('SCRIPT_ERROR');
    expect(missing.message).toContain('nonExistentVariable is not defined');
    const thrown = await t.fails('browser_evaluate', { script: 'document.querySelector("#nope").click()' });
    expect(thrown.message).toContain('Cannot read properties of null');
    expect(thrown.message).not.toMatch(/\/(home|root|usr|tmp|work)\//);
  });
});

describe('browser_run errors', () => {
  test("carry the exception's own message with absolute paths, URLs and secrets removed", async () => {
    const result = await run(
      "throw new Error('bad token=abc123secret in /home/agent/private/run.js from http://127.0.0.1:9/x?k=1')",
    );
    expect(result.isError).toBe(true);
    const text = JSON.stringify(result.content);
    expect(text).toContain('bad token=');
    for (const leak of ['abc123secret', '/home/agent', '127.0.0.1:9']) expect(text).not.toContain(leak);
  });
});
