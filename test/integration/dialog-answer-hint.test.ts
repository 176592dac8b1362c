/**
 * A prompt or confirm nobody expected is dismissed, and the result's dialog line says how to answer
 * it on the face that reports it: over MCP (an action, a browser_run step, a code-mode script) with
 * browser_action_and_wait and `waitFor: {kind: "dialog", promptText}`; on AgentBrowser with
 * browser_dialog. Following the MCP hint answers the prompt. An alert's line stays as it was.
 */
import { ToolDriver } from './support/agent.js';
import { describe, expect, test } from './support/fixtures.js';

const PROMPT_HINT =
  'prompt "What is your name?" (dismissed; to answer it, repeat the action with browser_action_and_wait, waitFor: {kind: "dialog", promptText})';
const CONFIRM_HINT =
  'confirm "Are you sure?" (dismissed; to accept it, repeat the action with browser_action_and_wait, waitFor: {kind: "dialog"})';
const button = (name: string): Record<string, unknown> => ({ locator: { role: 'button', name } });

describe('a dismissed dialog says how to answer it', () => {
  test('MCP: an action, then the hint followed; browser_run steps and code', async ({
    harness: h,
    session: s,
    site,
  }) => {
    await h.ok('browser_navigate', { ...s, url: site.url('/actions/dialogs') });
    const clicked = await h.ok<{ dialogs?: string[] }>('browser_click', {
      ...s,
      ...button('Show prompt'),
    });
    expect(clicked.dialogs).toEqual([PROMPT_HINT]);
    await h.ok('browser_wait', { ...s, text: 'prompt: null', timeoutMs: 10_000 });

    // The hint, followed: the prompt is answered.
    await h.ok('browser_action_and_wait', {
      ...s,
      target: button('Show prompt'),
      waitFor: { kind: 'dialog', promptText: 'Grace' },
    });
    await h.ok('browser_wait', { ...s, text: 'prompt: Grace', timeoutMs: 10_000 });

    const steps = await h.ok<{ dialogs?: string[] }>('browser_run', {
      ...s,
      actions: [
        { action: 'click', locator: { role: 'button', name: 'Show confirm' } },
        { action: 'click', locator: { role: 'button', name: 'Show alert' } },
      ],
    });
    expect(steps.dialogs).toEqual([CONFIRM_HINT, 'alert "Hello from the fixture" (dismissed)']);

    const code = await h.ok<{ dialogs?: string[]; value: string }>('browser_run', {
      ...s,
      timeoutMs: 60_000,
      code: `await page.getByRole('button', { name: 'Show prompt' }).click();
        return await page.textContent('#dialog-status');`,
    });
    expect(code.value).toBe('prompt: null');
    expect(code.dialogs).toEqual([PROMPT_HINT]);
  });

  test('AgentBrowser: the line names browser_dialog, in an action and in browser_run', async ({
    agentBrowser,
    site,
  }) => {
    const t = new ToolDriver(agentBrowser, { threadId: 'dialog-hint' });
    await t.ok('browser_goto', { url: site.url('/actions/dialogs') });
    const ref = await t.ref('button', 'Show prompt');
    const clicked = await t.ok<{ dialogs?: string[] }>('browser_click', { ref });
    expect(clicked.dialogs).toEqual([
      'prompt "What is your name?" (dismissed; to answer it, repeat the click with browser_dialog, action: "accept", text)',
    ]);
    const run = await t.ok<{ dialogs?: string[] }>('browser_run', {
      code: `await page.getByRole('button', { name: 'Show confirm' }).click(); return null;`,
    });
    expect(run.dialogs).toEqual([
      'confirm "Are you sure?" (dismissed; to accept it, repeat the click with browser_dialog, action: "accept")',
    ]);
    await t.ok('browser_close', {});
  });
});
