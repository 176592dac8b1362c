import { describe, expect, test } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { ToolDriver } from './support/agent.js';

/** Text waits through AgentBrowser: its browser_wait shares the MCP server's frame- and shadow-aware text wait. */

let site: FixtureServer;
let browser: AgentBrowser;
let t: ToolDriver;

// The file's site and AgentBrowser come from the shared fixtures.
test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  browser = agentBrowser;
  t = new ToolDriver(browser);
});

describe('AgentBrowser browser_wait text', () => {
  test('waits for any of several texts in a cross-origin iframe and says which', async () => {
    await t.ok('browser_goto', { url: site.url('/real/widgets?ms=300') });
    const result = await t.ok<{ matched: string }>('browser_wait', {
      text: ['Payment declined', 'Payment accepted'],
      timeout: 10_000,
    });
    expect(result.matched).toBe('Payment accepted');
  });

  test('absence waits while the text is still shown in a shadow root', async () => {
    await t.ok('browser_goto', { url: site.url('/real/components') });
    expect((await t.fails('browser_wait', { text: 'Filter: all', present: false, timeout: 700 })).code).toBe(
      'OPERATION_TIMEOUT',
    );
    await t.ok('browser_wait', { text: 'Hello World', timeout: 10_000 });
  });

  test('refuses text with a ref, and present without text', async () => {
    await t.ok('browser_goto', { url: site.url('/real/components') });
    expect((await t.fails('browser_wait', { text: 'x', ref: '@e1' })).code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_wait', { present: false })).code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_wait', { text: '  ' })).code).toBe('INVALID_ARGUMENT');
  });
});

describe('AgentBrowser browser_screenshot', () => {
  test('scales a full page over the limits down and says so (shared operation)', async () => {
    site.route('/agent/tall', (_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>Tall</title><div style="height:30000px">top</div>');
    });
    await t.ok('browser_goto', { url: site.url('/agent/tall') });
    const shot = await t.ok<{ height: number; scale?: number; clipped?: boolean }>('browser_screenshot', {
      fullPage: true,
    });
    expect(shot.scale).toBeGreaterThan(0);
    expect(shot.scale).toBeLessThan(1);
    expect(typeof shot.clipped).toBe('boolean');
  });
});
