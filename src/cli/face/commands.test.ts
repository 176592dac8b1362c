import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandsMarkdown } from './commands-doc.js';
import {
  actionOf,
  commandHelp,
  commandsHelp,
  COMMANDS,
  findCommand,
  parseCommand,
  UsageError,
} from './commands.js';

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
    // The element-action table's rows are verbs too: blur, scroll-into-view.
    expect(parse(['blur', 'e5']).action).toMatchObject({ tool: 'browser_blur', args: { ref: '@e5' } });
    expect(parse(['scroll-into-view', '--label', 'Email']).action).toMatchObject({
      tool: 'browser_scroll_into_view',
      args: { locator: { label: 'Email' } },
    });
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

  it('maps find, cookies, storage, routes, emulation and select-text to their tools', () => {
    expect(parse(['find', 'Add to cart']).action).toEqual({
      kind: 'tool',
      tool: 'browser_find',
      args: { text: 'Add to cart' },
      address: 'page',
    });
    expect(parse(['find', '--regex', 'cart$', '--max', '5']).action).toMatchObject({
      args: { regex: 'cart$', maxResults: 5 },
    });
    expect(parse(['find', '--role', 'button', '--name', 'Save']).action).toMatchObject({
      args: { role: 'button', name: 'Save' },
    });
    // Without --domain or --url a cookie is set for the current tab's URL (the daemon reads it).
    expect(parse(['cookie-set', 'theme', 'dark', '--httpOnly', '--sameSite', 'Lax']).action).toEqual({
      kind: 'tool',
      tool: 'browser_cookies',
      args: { action: 'set', name: 'theme', value: 'dark', httpOnly: true, sameSite: 'Lax' },
      address: 'session',
      pageUrl: 'url',
    });
    expect(parse(['cookie-set', 'a', 'b', '--domain', 'x.test']).action).not.toHaveProperty('pageUrl');
    expect(parse(['cookie-list', '--domain', '127.0.0.1']).action).toMatchObject({
      args: { action: 'list', domain: '127.0.0.1' },
      address: 'session',
    });
    expect(parse(['cookie-get', 'sid']).action).toMatchObject({ args: { action: 'get', name: 'sid' } });
    expect(parse(['cookie-clear']).action).toMatchObject({ args: { action: 'clear' } });
    expect(parse(['localstorage-set', 'k', 'v']).action).toMatchObject({
      tool: 'browser_storage',
      args: { area: 'local', action: 'set', key: 'k', value: 'v' },
      address: 'page',
    });
    expect(parse(['sessionstorage-delete', 'k']).action).toMatchObject({
      args: { area: 'session', action: 'delete', key: 'k' },
    });
    expect(
      parse(['route', '**/api/*', '--status', '404', '--body', 'gone', '--content-type', 'text/plain'])
        .action,
    ).toMatchObject({
      tool: 'browser_route',
      args: { action: 'add', url: '**/api/*', status: 404, body: 'gone', contentType: 'text/plain' },
      address: 'session',
    });
    expect(parse(['route', '**/ads/**', '--abort']).action).toMatchObject({
      args: { url: '**/ads/**', abort: 'failed' },
    });
    expect(parse(['route', '**/x', '--header', 'X-Test: yes']).action).toMatchObject({
      args: { url: '**/x', headers: { 'X-Test': 'yes' } },
    });
    expect(parse(['route', '**/x', '--header', 'X-Test: yes']).action).not.toHaveProperty('args.status');
    expect(parse(['route', '**/x', '--file', 'mock.json']).action).toMatchObject({
      args: { path: '/work/mock.json', status: 200 },
    });
    expect(parse(['unroute', '**/api/*']).action).toEqual({ kind: 'unroute', url: '**/api/*' });
    expect(parse(['unroute']).action).toEqual({ kind: 'unroute' });
    expect(parse(['route-list']).action).toMatchObject({ args: { action: 'list' } });
    expect(
      parse([
        'emulate',
        '--color-scheme',
        'dark',
        '--reduced-motion',
        'reduce',
        '--offline',
        '--network',
        'slow-3g',
        '--cpu',
        '4',
        '--geo',
        '52.52,-13.4',
      ]).action,
    ).toMatchObject({
      tool: 'browser_emulate',
      args: {
        colorScheme: 'dark',
        reducedMotion: 'reduce',
        offline: true,
        network: 'slow3g',
        cpuThrottling: 4,
        geolocation: { latitude: 52.52, longitude: -13.4 },
      },
    });
    expect(parse(['emulate', '--reset']).action).toMatchObject({ args: { reset: true } });
    expect(parse(['select-text', '@e4', 'brown', '--occurrence', '2']).action).toMatchObject({
      tool: 'browser_focus',
      args: { ref: '@e4', selectText: 'brown', occurrence: 2 },
    });
    expect(parse(['select-text', '--css', '#para', 'fox']).action).toMatchObject({
      args: { locator: { css: '#para' }, selectText: 'fox' },
    });
  });

  it.each([
    [['find']],
    [['find', 'a', '--regex', 'b']],
    [['find', '--name', 'Save']],
    [['cookie-get']],
    [['cookie-set', 'only-name']],
    [['cookie-set', 'a', 'b', '--sameSite', 'lax']],
    [['cookie-clear', '--domain', 'x.test']],
    [['localstorage-get']],
    [['sessionstorage-set', 'k']],
    [['route']],
    [['route', '**/x', '--abort', '--body', 'b']],
    [['route', '**/x', '--header', 'no-colon']],
    [['route', '**/x', '--status', 'abc']],
    [['unroute', 'a', 'b']],
    [['emulate']],
    [['emulate', '--network', '2g']],
    [['emulate', '--geo', 'north']],
    [['emulate', '--offline', '--online']],
    [['select-text', '@e4']],
    [['select-text', 'brown']],
  ])('refuses %j as a usage error', (argv) => {
    expect(() => parse(argv)).toThrow(UsageError);
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

  it('lists a command family on one --help line; each member keeps its own help', () => {
    const help = commandsHelp();
    expect(help).toContain('cookie-list|get|set|delete|clear');
    expect(help).toContain('localstorage-list|get|set|delete|clear');
    expect(help).not.toMatch(/^ {2}cookie-get /m);
    expect(commandHelp(findCommand('cookie-get')!)).toMatch(/^Usage: browsermesh cookie-get <name>/);
  });

  it('has one entry per name and docs/cli.md is generated from it', () => {
    const names = COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    const doc = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
    expect(doc).toContain(commandsMarkdown());
  });
});

describe('typos and help', () => {
  const usage = (argv: string[]): string => {
    try {
      parseCommand(argv, '/work', () => undefined);
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
    throw new Error(`accepted ${argv.join(' ')}`);
  };

  it('suggests the command or option a typo was likely meant as', () => {
    expect(usage(['clik', '@e5'])).toMatch(/^unknown command "clik" \(did you mean click\?\)/);
    expect(usage(['snapshot', '--depht', '3'])).toMatch(/unknown option --depht \(did you mean --depth\?\)/);
    // Nothing close: no guess.
    expect(usage(['frobnicate'])).toBe('unknown command "frobnicate" (see browsermesh --help)');
  });

  it('lists each option once: wait --text is the condition, not the locator', () => {
    const help = commandHelp(findCommand('wait')!);
    expect(help.match(/^ {2}--text /gm)).toHaveLength(1);
    for (const spec of COMMANDS) {
      const names = [...commandHelp(spec).matchAll(/^ {2}(?:-\w, )?--([\w-]+)/gm)].map((match) => match[1]);
      expect(new Set(names).size, spec.name).toBe(names.length);
    }
  });
});

describe('--timeout on a command', () => {
  const action = (argv: string[]) => actionOf(parseCommand(argv, '/work', () => undefined));

  it("is that call's timeoutMs, not a daemon setting", () => {
    const parsed = parseCommand(['wait', '--text', 'Done', '--timeout', '500'], '/work', () => undefined);
    expect(parsed.configArgs).toEqual([]);
    expect(actionOf(parsed)).toMatchObject({ tool: 'browser_wait', args: { text: 'Done', timeoutMs: 500 } });
    expect(action(['click', 'e5', '--timeout=2000'])).toMatchObject({
      args: { ref: '@e5', timeoutMs: 2000 },
    });
  });

  it('refuses a value that is not a positive whole number, and commands that are not one call', () => {
    for (const bad of ['0', '-5', '1.5', 'soon'])
      expect(() => action(['click', 'e5', '--timeout', bad])).toThrow(/--timeout takes a whole number/);
    expect(() => action(['tabs', '--timeout', '500'])).toThrow(
      /--timeout applies to commands that make one page call/,
    );
  });
});
