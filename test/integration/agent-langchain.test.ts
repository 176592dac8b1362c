/**
 * LangChain.js: the tools from `browsermesh/langchain` invoked as LangChain runs them — with a tool
 * call (ToolMessage with content and artifact) and a run config carrying `configurable.thread_id`.
 */
import type { ToolMessage } from '@langchain/core/messages';
import { describe, expect, test } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import { toLangChainTools } from '../../src/agent/adapters/langchain.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { refIn, ToolDriver } from './support/agent.js';

let site: FixtureServer;
let browser: AgentBrowser;

// The file's site and AgentBrowser come from the shared fixtures.
test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  browser = agentBrowser;
});

describe('browsermesh/langchain', () => {
  test('invokes the tools with LangChain tool calls: compact content for the model, the structured result as artifact', async () => {
    const tools = Object.fromEntries(toLangChainTools(browser).map((tool) => [tool.name, tool]));
    expect(Object.keys(tools)).toEqual(
      expect.arrayContaining(['browser_goto', 'browser_snapshot', 'browser_click', 'browser_screenshot']),
    );
    const config = { configurable: { thread_id: 'lc-thread' } };
    let call = 0;
    const invoke = async (name: string, args: Record<string, unknown>): Promise<ToolMessage> => {
      const tool = tools[name];
      if (!tool) throw new Error(`no tool ${name}`);
      return (await tool.invoke(
        { id: `call_${++call}`, name, args, type: 'tool_call' },
        config,
      )) as ToolMessage;
    };
    const goto = await invoke('browser_goto', { url: site.url('/actions/buttons') });
    expect(goto.artifact).toMatchObject({ url: site.url('/actions/buttons'), status: 200 });
    expect(goto.tool_call_id).toBe('call_1');
    const snapshot = await invoke('browser_snapshot', { interactiveOnly: true });
    expect(typeof snapshot.content).toBe('string');
    const increment = refIn(String(snapshot.content), 'button', 'Increment');
    const clicked = await invoke('browser_click', { ref: increment });
    expect(clicked.artifact).toMatchObject({ completed: true });
    const shot = await invoke('browser_screenshot', {});
    expect(Array.isArray(shot.content)).toBe(true);
    expect((shot.content as Array<{ type: string; image_url?: { url: string } }>)[1]?.image_url?.url).toMatch(
      /^data:image\/png;base64,iVBOR/,
    );
    // What the page did, in the thread the run config named.
    expect(await new ToolDriver(browser, { threadId: 'lc-thread' }).text('count')).toBe('Count: 1');
  });

  test('returns errors as data the model can act on, and the next call works', async () => {
    const [select] = toLangChainTools(browser, { threadId: 'lc-errors' }).filter(
      (tool) => tool.name === 'browser_select',
    );
    const [goto] = toLangChainTools(browser, { threadId: 'lc-errors' }).filter(
      (tool) => tool.name === 'browser_goto',
    );
    await goto?.invoke({ url: site.url('/actions/select') });
    const refused = (await select?.invoke({
      id: 'c1',
      name: 'browser_select',
      args: { ref: '@e1' },
      type: 'tool_call',
    })) as ToolMessage;
    expect(JSON.parse(String(refused.content))).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', canRetry: false },
    });
    // A failed action is a failed ToolMessage (LangGraph and tracing read `status`), with the same id.
    expect(refused.status).toBe('error');
    expect(refused.tool_call_id).toBe('c1');
    expect(refused.artifact).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    const t = new ToolDriver(browser, { threadId: 'lc-errors' });
    const fruit = await t.ref('combobox', 'Fruit');
    const picked = (await select?.invoke({
      id: 'c2',
      name: 'browser_select',
      args: { ref: fruit, index: 3 },
      type: 'tool_call',
    })) as ToolMessage;
    expect(picked.artifact).toMatchObject({ selected: ['cherry'] });
    expect(picked.status).toBe('success');
  });
});
