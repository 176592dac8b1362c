import { describe, expect, it } from 'vitest';
import { TOOL_PROFILES } from '../config/settings.js';
import { helpText } from './help.js';

describe('--help (issue 31)', () => {
  const help = helpText();

  it('names every tool profile the loader accepts, watch included', () => {
    const toolsLine = help.split('\n').find((line) => line.trimStart().startsWith('--tools')) ?? '';
    for (const profile of TOOL_PROFILES) expect(toolsLine).toMatch(new RegExp(`\\b${profile}\\b`));
  });

  it('leaves out the compatibility-only --support-request', () => {
    expect(help).not.toContain('support-request');
    expect(help).not.toContain('BROWSERMESH_SUPPORT_REQUEST');
  });
});
