import { describe, expect, it } from 'vitest';
import { TOOL_PROFILES } from '../config/settings.js';
import { helpText } from './help.js';

describe('--help', () => {
  const help = helpText({ all: true });
  const short = helpText();

  it('opens with the shell commands and a few server flags; --help-all has the rest', () => {
    const lines = short.split('\n');
    expect(lines.findIndex((line) => line.startsWith('Shell commands'))).toBeLessThan(10);
    expect(lines.length).toBeLessThan(90);
    for (const flag of ['--http', '--port', '--headed', '--tools', '--secrets', '--help-all'])
      expect(short).toContain(flag);
    expect(short).not.toContain('--max-sessions');
    expect(short).not.toContain('Environment-only settings');
    expect(help).toContain('--max-sessions <value>');
    expect(help).toContain('Environment-only settings');
    // Each flag once.
    for (const text of [short, help]) {
      const flags = [...text.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1]);
      expect(new Set(flags).size).toBe(flags.length);
    }
  });

  it('names every tool profile the loader accepts, watch included', () => {
    const toolsLine = help.split('\n').find((line) => line.trimStart().startsWith('--tools')) ?? '';
    for (const profile of TOOL_PROFILES) expect(toolsLine).toMatch(new RegExp(`\\b${profile}\\b`));
  });

  it('leaves out the compatibility-only --support-request', () => {
    expect(help).not.toContain('support-request');
    expect(help).not.toContain('BROWSERMESH_SUPPORT_REQUEST');
  });
});
