import { UsageError, type CommandInput, type CommandSpec, type OptionSpec } from './command-spec.js';
import { takeTarget, tool } from './command-helpers.js';

/**
 * Find, one cookie or storage key, routes and emulation, and selecting text:
 * each one call of browser_find, browser_cookies, browser_storage, browser_route, browser_emulate or
 * browser_focus. Names follow playwright-cli's where it has them.
 */

const find: CommandSpec = {
  name: 'find',
  usage: '[text]',
  summary:
    'Only the page nodes matching text, --regex or --role (+--name), with refs: cheaper than a snapshot',
  options: [
    { name: 'regex', value: 'PATTERN', help: 'a regular expression (pattern or /pattern/flags)' },
    { name: 'role', value: 'ROLE', help: 'an ARIA role, e.g. button' },
    { name: 'name', value: 'NAME', help: 'with --role: accessible name contains this' },
    { name: 'max', value: 'N', help: 'at most N matches (default 20)' },
    { name: 'cursor', value: 'CURSOR', help: 'read on where the previous find was cut' },
  ],
  build: (input) => {
    const text = input.takeOptional();
    input.done();
    const regex = input.text('regex');
    const role = input.text('role');
    const name = input.text('name');
    const cursor = input.text('cursor');
    const given = [text, regex, role].filter((v) => v !== undefined).length;
    if (cursor === undefined && given !== 1)
      throw new UsageError('find: give exactly one of text, --regex or --role');
    if (name !== undefined && role === undefined) throw new UsageError('find: --name goes with --role');
    const maxResults = input.int('max');
    return tool('find', {
      ...(text === undefined ? {} : { text }),
      ...(regex === undefined ? {} : { regex }),
      ...(role === undefined ? {} : { role }),
      ...(name === undefined ? {} : { name }),
      ...(maxResults === undefined ? {} : { maxResults }),
      ...(cursor === undefined ? {} : { cursor }),
    });
  },
};

const domainOption: OptionSpec = { name: 'domain', value: 'DOMAIN', help: 'only cookies of this domain' };

/** `cookie-<action>`: one browser_cookies call on the session. */
function cookie(action: 'list' | 'get' | 'delete' | 'clear', usage: string, summary: string): CommandSpec {
  return {
    name: `cookie-${action}`,
    usage,
    summary,
    helpLine:
      action === 'list'
        ? {
            usage: 'cookie-list|get|set|delete|clear',
            summary: "The session's cookies, one at a time (credential-like values redacted in lists)",
          }
        : false,
    options:
      action === 'clear'
        ? []
        : [
            domainOption,
            ...(action === 'list' ? [{ name: 'path', value: 'PATH', help: 'only this path' }] : []),
          ],
    build: (input) => {
      const name = usage === '' ? undefined : input.take('cookie name');
      input.done();
      const domain = input.text('domain');
      const path = input.text('path');
      return tool(
        'cookies',
        {
          action,
          ...(name === undefined ? {} : { name }),
          ...(domain === undefined ? {} : { domain }),
          ...(path === undefined ? {} : { path }),
        },
        'session',
      );
    },
  };
}

const cookieSet: CommandSpec = {
  name: 'cookie-set',
  helpLine: false,
  usage: '<name> <value>',
  summary: "Set a cookie (for the current tab's URL unless --domain or --url)",
  options: [
    { name: 'domain', value: 'DOMAIN', help: 'cookie domain' },
    { name: 'url', value: 'URL', help: 'cookie for this URL (instead of --domain)' },
    { name: 'path', value: 'PATH', help: 'cookie path (default /)' },
    { name: 'expires', value: 'SECONDS', help: 'expiry as a Unix timestamp (default: a session cookie)' },
    { name: 'httpOnly', help: 'not readable by page scripts' },
    { name: 'secure', help: 'sent over HTTPS only' },
    { name: 'sameSite', value: 'MODE', help: 'Strict, Lax or None' },
  ],
  build: (input) => {
    const name = input.take('cookie name');
    const value = input.take('cookie value');
    input.done();
    const [domain, url, path] = [input.text('domain'), input.text('url'), input.text('path')];
    const expires = input.int('expires');
    const sameSite = input.text('sameSite');
    if (sameSite !== undefined && !['Strict', 'Lax', 'None'].includes(sameSite))
      throw new UsageError('cookie-set: --sameSite is Strict, Lax or None');
    const action = tool(
      'cookies',
      {
        action: 'set',
        name,
        value,
        ...(domain === undefined ? {} : { domain }),
        ...(url === undefined ? {} : { url }),
        ...(path === undefined ? {} : { path }),
        ...(expires === undefined ? {} : { expires }),
        ...(input.flag('httpOnly') ? { httpOnly: true } : {}),
        ...(input.flag('secure') ? { secure: true } : {}),
        ...(sameSite === undefined ? {} : { sameSite }),
      },
      'session',
    );
    return domain === undefined && url === undefined ? { ...action, pageUrl: 'url' } : action;
  },
};

/** `localstorage-<action>` / `sessionstorage-<action>`: one browser_storage call on the current tab. */
function storage(area: 'local' | 'session'): CommandSpec[] {
  const actions = [
    ['list', '', 'List the keys and values of'],
    ['get', '<key>', 'One value of'],
    ['set', '<key> <value>', 'Set a key of'],
    ['delete', '<key>', 'Delete a key of'],
    ['clear', '', 'Clear'],
  ] as const;
  return actions.map(([action, usage, summary]) => ({
    name: `${area}storage-${action}`,
    usage,
    summary: `${summary} the current tab's ${area}Storage`,
    helpLine:
      action === 'list'
        ? {
            usage: `${area}storage-list|get|set|delete|clear`,
            summary: `The current tab's ${area}Storage, one key at a time`,
          }
        : false,
    build: (input: CommandInput) => {
      const key = usage === '' ? undefined : input.take('key');
      const value = action === 'set' ? input.take('value') : undefined;
      input.done();
      return tool('storage', {
        area,
        action,
        ...(key === undefined ? {} : { key }),
        ...(value === undefined ? {} : { value }),
      });
    },
  }));
}

/** `select-text`: browser_focus with selectText (a range in a contenteditable, an input or a textarea). */
const selectText: CommandSpec = {
  name: 'select-text',
  usage: '<ref|locator> <text>',
  summary: 'Select text by its content inside an element (then press a key: Control+b, Delete, …)',
  options: [{ name: 'occurrence', value: 'N', help: 'which match (default 1)' }],
  target: true,
  build: (input) => {
    const target = takeTarget(input);
    const text = input.take('text');
    input.done();
    const occurrence = input.int('occurrence');
    return tool('focus', {
      ...target,
      selectText: text,
      ...(occurrence === undefined ? {} : { occurrence }),
    });
  },
};

export const STATE_COMMANDS: readonly CommandSpec[] = [
  find,
  selectText,
  cookie('list', '', "The session's cookies (credential-like values redacted)"),
  cookie('get', '<name>', 'One cookie by name'),
  cookieSet,
  cookie('delete', '<name>', 'Delete a cookie by name'),
  cookie('clear', '', "Delete all of the session's cookies"),
  ...storage('local'),
  ...storage('session'),
];
