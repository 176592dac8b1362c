import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { agentView, defineTool, READ_ONLY, type AnyTool } from '../tools/define.js';
import { ALL_TOOLS } from '../tools/index.js';
import { BROWSER_TOOL_NAMES, browserToolNames } from './options.js';

// The order AgentBrowser lists its tools in is API (seed 000's 16 first): it must not move.
const PUBLISHED = [
  'browser_goto',
  'browser_snapshot',
  'browser_click',
  'browser_type',
  'browser_press',
  'browser_select',
  'browser_scroll',
  'browser_screenshot',
  'browser_close',
  'browser_hover',
  'browser_back',
  'browser_dialog',
  'browser_wait',
  'browser_tabs',
  'browser_drag',
  'browser_evaluate',
  'browser_run',
  'browser_upload',
  'browser_files',
  'browser_mouse',
  'browser_select_text',
  'browser_record',
  'browser_record_caption',
  'browser_request_human',
  'browser_replay',
];

const withView = (name: string): AnyTool =>
  defineTool({
    name: 'browser_later',
    title: 'Later',
    description: 'A tool added after the list was frozen.',
    profile: 'core',
    input: z.object({}),
    output: z.object({}),
    hints: READ_ONLY,
    agent: agentView({ name, description: 'x', input: z.object({}), toArgs: (a) => a }),
    handler: async () => ({}),
  }) as unknown as AnyTool;

describe('BROWSER_TOOL_NAMES', () => {
  it('keeps the published order and names every agent view of the tool table', () => {
    expect([...BROWSER_TOOL_NAMES]).toEqual(PUBLISHED);
    for (const tool of ALL_TOOLS)
      if (tool.agent) expect(BROWSER_TOOL_NAMES, tool.name).toContain(tool.agent.name);
  });

  it('is read from the definitions: a new view is listed after the others, once', () => {
    const names = browserToolNames([...ALL_TOOLS, withView('browser_later'), withView('browser_later')]);
    expect(names).toEqual([...PUBLISHED, 'browser_later']);
  });
});
