/**
 * AgentBrowser publishes seed 000's 16 tools by default (every description rides along on each
 * model call); the others come by name or all at once with `extraTools`. No browser is launched.
 */
import { describe, expect, it } from 'vitest';
import { AgentBrowser } from '../../src/agent/agent-browser.js';
import { BROWSER_TOOL_NAMES, SEED_TOOL_NAMES } from '../../src/agent/options.js';

const names = (browser: AgentBrowser): string[] => Object.keys(browser.getTools());

describe('AgentBrowser tool set', () => {
  it("is seed 000's 16 tools by default, in the seed's order", () => {
    // The order itself is pinned in src/agent/options.test.ts.
    expect(SEED_TOOL_NAMES).toEqual(BROWSER_TOOL_NAMES.slice(0, 16));
    expect(SEED_TOOL_NAMES).toHaveLength(16);
    expect(names(new AgentBrowser())).toEqual(SEED_TOOL_NAMES);
  });

  it('adds the recording tools when recording is configured', () => {
    expect(names(new AgentBrowser({ recording: { outputDir: 'recordings' } }))).toEqual([
      ...SEED_TOOL_NAMES,
      'browser_record',
      'browser_record_caption',
    ]);
  });

  it('takes more tools by name or all of them, and excludeTools still wins', () => {
    expect(names(new AgentBrowser({ extraTools: ['browser_mouse', 'browser_run'] }))).toEqual([
      ...SEED_TOOL_NAMES,
      'browser_run',
      'browser_mouse',
    ]);
    const all = names(new AgentBrowser({ extraTools: 'all', excludeTools: ['browser_evaluate'] }));
    expect(all).toContain('browser_mouse');
    expect(all).not.toContain('browser_evaluate');
    expect(all).toHaveLength(BROWSER_TOOL_NAMES.length - 3); // no evaluate, no recording tools
    expect(BROWSER_TOOL_NAMES).toEqual(expect.arrayContaining(all));
  });

  it('refuses an unknown extra tool by name, with INVALID_ARGUMENT', () => {
    expect(() => new AgentBrowser({ extraTools: ['browser_teleport' as never] })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('extraTools') }),
    );
    expect(() => new AgentBrowser({ extraTools: 'some' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
