import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandsMarkdown } from './commands-doc.js';
import { COMMANDS, parseCommand, UsageError } from './commands.js';

const parse = (argv: string[], stdin?: string) => {
  const parsed = parseCommand(argv, '/work', () => stdin);
  return { ...parsed, action: parsed.spec.build(parsed.input) };
};

describe('the shell command table', () => {
  it('maps refs (with or without @) and locators to one tool call', () => {
    expect(parse(['click', 'e5']).action).toEqual({
      kind: 'tool',
      tool: 'browser_click',
      args: { ref: '@e5' },
      address: 'page',
    });
    expect(parse(['fill', '--label', 'Email', 'a@b.c']).action).toMatchObject({
      args: { locator: { label: 'Email' }, value: 'a@b.c' },
    });
    expect(parse(['click', '--role', 'button', '--name', 'Save']).action).toMatchObject({
      args: { locator: { role: 'button', name: 'Save' } },
    });
    expect(parse(['press', 'Enter']).action).toMatchObject({ args: { key: 'Enter' } });
    expect(parse(['snapshot', '-i', '--depth', '3', '--scope', 'e2']).action).toMatchObject({
      args: { interactiveOnly: true, maxDepth: 3, scope: { ref: '@e2' } },
    });
    expect(parse(['wait', '--text', 'A', '--text', 'B']).action).toMatchObject({
      args: { text: ['A', 'B'] },
    });
    expect(parse(['upload', '@e3', 'a.txt']).action).toMatchObject({
      args: { files: [{ path: '/work/a.txt' }] },
    });
  });

  it('passes setting flags through and reads -s in any position', () => {
    const parsed = parse(['open', 'http://127.0.0.1:1/', '--headed', '-s', 'buyer', '--data-dir', '/tmp/x']);
    expect(parsed.session).toBe('buyer');
    expect(parsed.configArgs).toEqual(['--headed', '--data-dir', '/tmp/x']);
  });

  it('takes a run script from stdin when no argument is given', () => {
    expect(parse(['run'], 'return 1;').action).toMatchObject({ args: { code: 'return 1;' } });
  });

  it.each([
    [['frobnicate']],
    [['click']],
    [['fill', '@e1']],
    [['snapshot', '--depth', 'x']],
    [['open', 'a', 'b']],
    [['click', 'e1', '--nope']],
  ])('refuses %j as a usage error', (argv) => {
    expect(() => parse(argv)).toThrow(UsageError);
  });

  it('has one entry per name and docs/cli.md is generated from it', () => {
    const names = COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    const doc = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
    expect(doc).toContain(commandsMarkdown());
  });
});
