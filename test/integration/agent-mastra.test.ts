/**
 * Mastra: seed 000's own example — `new Agent({ ..., browser })` with the AgentBrowser from
 * `browsermesh/mastra` — run for real: a Mastra Agent with a scripted model calls browser_goto →
 * browser_snapshot → browser_click on the fixture site, and the page shows the click.
 *
 * @mastra/core 1.x declares Node >= 22.13. This file runs wherever Mastra loads (here on Node 20),
 * and the Node 20 run also starts this same file under Node 24 (npx node@24) and asserts its result,
 * so the supported line is exercised too. BROWSERMESH_MASTRA_CHILD marks the child run.
 */
import { spawnSync } from 'node:child_process';
import { Agent } from '@mastra/core/agent';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { AgentBrowser, MastraAgentBrowser } from '../../src/agent/adapters/mastra.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { refIn, ToolDriver } from './support/agent.js';
import { CHROMIUM } from '../helpers/harness.js';
import { lastToolOutput, lastToolText, scriptedModel } from './support/scripted-model.js';

let site: FixtureServer;
let browser: MastraAgentBrowser;

// The file's site comes from the shared fixtures; its browser is Mastra's AgentBrowser, as seed 000 builds it.
const test = fixtureTest.extend(
  'mastraBrowser',
  { scope: 'file' },
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  ({}, { onCleanup }): MastraAgentBrowser => {
    const mastra = new AgentBrowser({
      headless: true,
      viewport: { width: 1280, height: 720 },
      scope: 'thread',
      executablePath: CHROMIUM,
      timeout: 30_000,
    });
    onCleanup(() => mastra.close());
    return mastra;
  },
);

test.beforeAll(({ site: fileSite, mastraBrowser }) => {
  site = fileSite;
  browser = mastraBrowser;
});

describe('browsermesh/mastra', () => {
  test('works as seed 000 shows: a Mastra Agent with `browser` clicks through goto → snapshot → click', async () => {
    const launched: unknown[] = [];
    const hooked = new AgentBrowser({
      executablePath: CHROMIUM,
      onLaunch: ({ browser: b }) => void launched.push(b),
    });
    const { model, prompts } = scriptedModel([
      () => [{ toolName: 'browser_goto', input: { url: site.url('/actions/buttons') } }],
      () => [{ toolName: 'browser_snapshot', input: { interactiveOnly: true } }],
      (prompt) => [
        {
          toolName: 'browser_click',
          input: { ref: refIn(lastToolText(prompt, 'browser_snapshot'), 'button', 'Increment') },
        },
      ],
      () => [{ toolName: 'browser_screenshot', input: {} }],
      () => [{ text: 'Clicked Increment.' }],
    ]);
    const agent = new Agent({
      id: 'browser-agent',
      name: 'Browser Agent',
      instructions:
        'You can browse the web. Use browser_snapshot to see the page structure, then interact with elements using their refs (e.g., @e5).',
      model,
      browser: hooked,
    });
    const result = await agent.generate('Open the buttons page and click Increment.', {
      maxSteps: 8,
      memory: { thread: 'mastra-thread', resource: 'tester' },
    });
    expect(result.text).toBe('Clicked Increment.');
    expect(result.steps.flatMap((step) => step.toolCalls.map((call) => call.payload.toolName))).toEqual([
      'browser_goto',
      'browser_snapshot',
      'browser_click',
      'browser_screenshot',
    ]);
    // The tools ran in the Mastra thread, and the page counted the click.
    expect(hooked.hasThreadSession('mastra-thread')).toBe(true);
    expect(await new ToolDriver(hooked.core, { threadId: 'mastra-thread' }).text('count')).toBe('Count: 1');
    expect(launched).toEqual([hooked]);
    expect(lastToolText(prompts[2] ?? [], 'browser_snapshot')).toMatch(/\[button @e\d+\] Increment/);
    // The context line follows the open page: none before the first step, the buttons page after goto,
    // and exactly one such line per prompt.
    const systemText = (prompt: (typeof prompts)[number]): string[] =>
      prompt.flatMap((m) =>
        m.role === 'system' && m.content.includes('You have a browser') ? [m.content] : [],
      );
    expect(systemText(prompts[0] ?? [])).toEqual([expect.stringContaining('No page is open yet')]);
    expect(systemText(prompts[1] ?? [])).toEqual([
      expect.stringContaining(`Current tab: ${site.url('/actions/buttons')}`),
    ]);
    const shot = lastToolOutput(prompts[4] ?? [], 'browser_screenshot');
    expect(shot).toMatchObject({
      type: 'content',
      value: [{ type: 'text' }, { type: 'image-data', mediaType: 'image/png' }],
    });
    await hooked.close();
    expect(hooked.status).toBe('closed');
  });

  test('implements the MastraBrowser interface over the core AgentBrowser', async () => {
    expect(browser.providerType).toBe('sdk');
    expect(browser.provider).toBe('browsermesh');
    expect(browser.getScope()).toBe('thread');
    expect(browser.headless).toBe(true);
    expect(Object.keys(browser.getTools())).toEqual(
      expect.arrayContaining(['browser_goto', 'browser_snapshot', 'browser_click', 'browser_tabs']),
    );
    expect(browser.isBrowserRunning()).toBe(false);
    await browser.launch();
    expect(browser.status).toBe('ready');
    const t = new ToolDriver(browser.core, { threadId: 'm2' });
    await t.ok('browser_goto', { url: site.url('/shop/') });
    expect(browser.hasThreadSession('m2')).toBe(true);
    expect(await browser.getCurrentUrl('m2')).toBe(site.url('/shop/'));
    expect(await browser.getBrowserState('m2')).toEqual({
      tabs: [{ url: site.url('/shop/'), title: 'Mesh Shop' }],
      activeTabIndex: 0,
    });
    const stream = await browser.startScreencast({ threadId: 'm2', maxWidth: 320, maxHeight: 240 });
    expect(stream.isActive()).toBe(true);
    await stream.stop();
    await browser.closeThreadSession('m2');
    expect(browser.hasThreadSession('m2')).toBe(false);
    expect(browser.getSessionId('m3')).toContain(':m3');
  });
});

describe.skipIf(process.env.BROWSERMESH_MASTRA_CHILD === '1' || process.versions.node.startsWith('24.'))(
  'on Node 24 (the line @mastra/core declares)',
  () => {
    test('passes the same tests under Node 24', ({ skip }) => {
      // npx fetches Node 24 once (then it is cached); without it there is nothing to run it on.
      const probe = spawnSync('npx', ['-y', 'node@24', '--version'], { encoding: 'utf8', timeout: 120_000 });
      if (probe.status !== 0 || !probe.stdout.startsWith('v24.'))
        skip('Node 24 is not available through npx here');
      const run = spawnSync(
        'npx',
        [
          '-y',
          'node@24',
          'node_modules/vitest/vitest.mjs',
          'run',
          '--project',
          'integration',
          'test/integration/agent-mastra.test.ts',
        ],
        { encoding: 'utf8', env: { ...process.env, BROWSERMESH_MASTRA_CHILD: '1' }, timeout: 240_000 },
      );
      const output = `${run.stdout}\n${run.stderr}`;
      expect(output, output.slice(-2000)).toMatch(/Tests\s+.*2 passed/);
      expect(run.status, output.slice(-2000)).toBe(0);
    }, 300_000);
  },
);
