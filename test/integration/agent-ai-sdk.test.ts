/**
 * Vercel AI SDK: `generateText` with a scripted mock model (spec v3) drives the AgentBrowser tools
 * from `browsermesh/ai-sdk` on the fixture site. The model reads refs out of the snapshot it was
 * given, as a real one would; the page's own status shows what happened.
 */
import { generateText, stepCountIs } from 'ai';
import { describe, expect, test } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import { toAISDKTools } from '../../src/agent/adapters/ai-sdk.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { refIn, ToolDriver } from './support/agent.js';
import { lastToolOutput, lastToolText, scriptedModel } from './support/scripted-model.js';

let site: FixtureServer;
let browser: AgentBrowser;

// The file's site and AgentBrowser come from the shared fixtures.
test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  browser = agentBrowser;
});

describe('browsermesh/ai-sdk', () => {
  test('runs goto → snapshot → click → screenshot in generateText; snapshots arrive as text, screenshots as images', async () => {
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
    const result = await generateText({
      model,
      tools: toAISDKTools(browser),
      stopWhen: stepCountIs(8),
      prompt: 'Open the buttons page and click Increment.',
      experimental_context: { threadId: 'ai-sdk-thread' },
    });
    expect(result.text).toBe('Clicked Increment.');
    expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName)).flat()).toEqual([
      'browser_goto',
      'browser_snapshot',
      'browser_click',
      'browser_screenshot',
    ]);
    // The snapshot reached the model as its own text, not as escaped JSON.
    const snapshotOutput = lastToolOutput(prompts[2] ?? [], 'browser_snapshot');
    expect(snapshotOutput.type).toBe('text');
    expect(lastToolText(prompts[2] ?? [], 'browser_snapshot')).toMatch(/\[button @e\d+\] Increment/);
    // The screenshot reached it as an image.
    const shot = lastToolOutput(prompts[4] ?? [], 'browser_screenshot');
    expect(shot.type).toBe('content');
    expect(shot.type === 'content' ? shot.value.map((part) => part.type) : []).toEqual([
      'text',
      'image-data',
    ]);
    // What the page did, seen from the same thread (experimental_context carried the thread id).
    expect(await new ToolDriver(browser, { threadId: 'ai-sdk-thread' }).text('count')).toBe('Count: 1');
    expect(browser.hasThread('default')).toBe(false);
  });

  test('hands tool errors to the model as data, and the loop goes on', async () => {
    const { model, prompts } = scriptedModel([
      () => [{ toolName: 'browser_goto', input: { url: site.url('/actions/select') } }],
      () => [{ toolName: 'browser_select', input: { ref: '@e1' } }],
      () => [{ toolName: 'browser_snapshot', input: {} }],
      (prompt) => [
        {
          toolName: 'browser_select',
          input: {
            ref: refIn(lastToolText(prompt, 'browser_snapshot'), 'combobox', 'Fruit'),
            label: 'Banana',
          },
        },
      ],
      () => [{ text: 'Picked Banana.' }],
    ]);
    const result = await generateText({
      model,
      tools: toAISDKTools(browser, { threadId: 'ai-sdk-errors' }),
      stopWhen: stepCountIs(8),
      prompt: 'Pick Banana.',
    });
    expect(result.text).toBe('Picked Banana.');
    const refused = JSON.parse(lastToolText(prompts[2] ?? [], 'browser_select')) as {
      error: { code: string; recoveryHint?: string };
    };
    expect(refused.error.code).toBe('INVALID_ARGUMENT');
    expect(await new ToolDriver(browser, { threadId: 'ai-sdk-errors' }).text('fruit-status')).toBe(
      'selected: ban (label: Banana, index: 2)',
    );
  });
});
