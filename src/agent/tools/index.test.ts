import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../engine/logger.js';
import { fromZodError, inputSchemaOf } from '../../tools/invoke.js';
import { ALL_TOOLS } from '../../tools/index.js';
import { BROWSER_TOOL_NAMES, type BrowserToolName } from '../options.js';
import type { ToolHost } from '../tool-runner.js';
import { buildToolEntries } from './index.js';

const host: ToolHost = {
  logger: silentLogger,
  secrets: {},
  viewFor: () => Promise.reject(new Error('no browser in this test')),
  existingView: () => undefined,
};
const every = new Set<BrowserToolName>(BROWSER_TOOL_NAMES);
const entries = buildToolEntries(
  { closeFor: () => Promise.resolve('nothing'), recordings: undefined },
  host,
  { published: every, excluded: new Set() },
);
const byName = new Map(entries.map((entry) => [entry.name, entry]));

/** What the MCP inputs cannot express: each of these is AgentBrowser's own definition. */
const AGENT_ONLY = [
  'browser_goto',
  'browser_type',
  'browser_close',
  'browser_dialog',
  'browser_wait',
  'browser_tabs',
];

describe('AgentBrowser tools', () => {
  it('are views on the MCP definitions, except the ones the MCP inputs cannot express', () => {
    const views = entries.filter((entry) => !AGENT_ONLY.includes(entry.name));
    for (const entry of views) {
      expect(ALL_TOOLS, entry.name).toContain(entry.tool);
      expect(entry.tool.publish, entry.name).not.toBe(false);
    }
    const mcp = (name: string): unknown => ALL_TOOLS.find((tool) => tool.name === name);
    for (const [view, definition] of [
      ['browser_snapshot', 'browser_snapshot'],
      ['browser_screenshot', 'browser_screenshot'],
      ['browser_back', 'browser_back'],
      ['browser_evaluate', 'browser_evaluate'],
      ['browser_run', 'browser_run'],
      ['browser_upload', 'browser_upload'],
      ['browser_files', 'browser_files'],
    ] as const) {
      expect(byName.get(view)?.tool, view).toBe(mcp(definition));
    }
    for (const name of AGENT_ONLY)
      expect(byName.get(name as BrowserToolName)?.tool.publish, name).toBe(false);
  });

  it("maps seed 000's arguments onto arguments the definition accepts", () => {
    const at = { sessionId: 's1', pageId: 'p1' };
    const accepts = (name: BrowserToolName, args: Record<string, unknown>): Record<string, unknown> => {
      const entry = byName.get(name);
      if (!entry?.toArgs) throw new Error(`${name} is no view`);
      const mapped = entry.toArgs(entry.input.parse(args), at);
      const checked = inputSchemaOf(entry.tool).safeParse(mapped);
      if (!checked.success) throw fromZodError(checked.error);
      return checked.data as Record<string, unknown>;
    };
    expect(accepts('browser_snapshot', { ref: '@e3', maxDepth: 2 })).toMatchObject({
      ...at,
      maxDepth: 2,
      scope: { ref: '@e3' },
    });
    expect(accepts('browser_screenshot', { quality: 40 })).toMatchObject({
      capture: { kind: 'viewport' },
      format: { type: 'jpeg', quality: 40 },
    });
    expect(accepts('browser_screenshot', { ref: '@e2' }).capture).toEqual({ kind: 'element', ref: '@e2' });
    expect(accepts('browser_evaluate', { script: '1' }).returnValue).toBe(false);
    expect(accepts('browser_files', { action: 'list' })).toEqual({ sessionId: 's1', action: 'list' });
    expect(accepts('browser_run', { code: 'return 1', timeout: 5000 })).toMatchObject({
      ...at,
      code: 'return 1',
      timeoutMs: 5000,
    });
  });

  it("refuses what the definition refuses, with the definition's INVALID_ARGUMENT", () => {
    const entry = byName.get('browser_screenshot');
    const mapped = entry?.toArgs?.(entry.input.parse({ ref: '@e1', fullPage: true }), {
      sessionId: 's1',
      pageId: 'p1',
    });
    const checked = entry && inputSchemaOf(entry.tool).safeParse(mapped);
    expect(checked?.success).toBe(false);
    if (checked && !checked.success) expect(fromZodError(checked.error).code).toBe('INVALID_ARGUMENT');
    // A malformed ref never reaches the mapping: the view's shape takes the same ref as every face.
    expect(byName.get('browser_snapshot')?.input.safeParse({ ref: ' @e5 ' }).success).toBe(false);
  });
});
