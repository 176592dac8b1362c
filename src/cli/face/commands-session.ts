import { readFileSync } from 'node:fs';
import { UsageError, type CommandInput, type CommandSpec } from './command-spec.js';
import { choose, defaultFile, pathFrom, REF, tool } from './command-helpers.js';

/** Files, code mode, observation, saved state, sessions, the daemon and the skill. */

const observe = (name: string, source: string, summary: string): CommandSpec => ({
  name,
  usage: name === 'requests' ? '[request-id]' : '',
  summary,
  options: [
    { name: 'since', value: 'N', help: 'only events after this id (the previous nextCursor)' },
    { name: 'limit', value: 'N', help: 'at most N events' },
  ],
  build: (input) => {
    const requestId = name === 'requests' ? input.takeOptional() : undefined;
    input.done();
    const since = input.int('since');
    const limit = input.int('limit');
    return tool('observe', {
      source,
      ...(requestId === undefined ? {} : { requestId }),
      ...(since === undefined ? {} : { sinceEventId: since }),
      ...(limit === undefined ? {} : { limit }),
    });
  },
});

const startStop = (name: string, toolName: string, summary: string): CommandSpec => ({
  name,
  usage: 'start|stop',
  summary,
  build: (input) => {
    const action = choose(input, ['start', 'stop'] as const);
    input.done();
    return tool(toolName, { action }, toolName === 'trace' ? 'session' : 'page');
  },
});

export const SESSION_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'screenshot',
    usage: '[ref] [path]',
    summary: 'Save a PNG of the viewport, the full page or one element; prints the path',
    options: [{ name: 'full', help: 'the whole page, not just the viewport' }],
    build: (input) => {
      const ref = REF.test(input.peek() ?? '') ? input.take('ref') : undefined;
      const path = input.takeOptional();
      input.done();
      const capture =
        ref !== undefined
          ? { kind: 'element', ref: ref.startsWith('@') ? ref : `@${ref}` }
          : { kind: input.flag('full') ? 'fullPage' : 'viewport' };
      const file = path === undefined ? defaultFile(input, 'png') : pathFrom(input, path);
      return { kind: 'file', source: 'screenshot', args: { capture }, path: file };
    },
  },
  {
    name: 'pdf',
    usage: '[path]',
    summary: 'Save the page as a PDF; prints the path',
    options: [
      { name: 'landscape', help: 'landscape orientation' },
      { name: 'letter', help: 'Letter paper instead of A4' },
    ],
    build: (input) => {
      const path = input.takeOptional();
      input.done();
      const file = path === undefined ? defaultFile(input, 'pdf') : pathFrom(input, path);
      const args = {
        ...(input.flag('landscape') ? { landscape: true } : {}),
        ...(input.flag('letter') ? { format: 'Letter' } : {}),
      };
      return { kind: 'file', source: 'pdf', args, path: file };
    },
  },
  {
    name: 'run',
    usage: '[script]',
    summary: 'Run a code-mode script (Playwright-style, `page` in scope) in one call; stdin works (heredoc)',
    details: [
      "browsermesh run <<'EOF'",
      "await page.getByLabel('Email').fill('a@b.c');",
      'return await page.title();',
      'EOF',
    ],
    options: [{ name: 'file', short: 'f', value: 'PATH', help: 'read the script from a file' }],
    build: (input) => ({ ...tool('run', { code: scriptOf(input) }) }),
  },
  {
    name: 'eval',
    usage: '<expression>',
    summary: 'Evaluate JavaScript in the page (only when the daemon serves the evaluate profile)',
    build: (input) => {
      const script = input.rest('expression').join(' ');
      return tool('evaluate', { script });
    },
  },
  observe('console', 'console', 'Console messages of the current tab'),
  observe('errors', 'pageError', 'Uncaught page errors of the current tab'),
  observe('requests', 'network', 'Network requests of the current tab (one request with its id)'),
  {
    name: 'resize',
    usage: '<width> <height>',
    summary: 'Set the viewport size',
    build: (input) => {
      const [width, height] = [input.take('width'), input.take('height')].map(Number);
      input.done();
      if (!Number.isInteger(width) || !Number.isInteger(height))
        throw new UsageError('resize: width and height are whole numbers');
      return tool('set_viewport', { width, height });
    },
  },
  {
    name: 'export-test',
    usage: '',
    summary: "Print the session's actions as a @playwright/test spec (redirect it to a file)",
    options: [
      { name: 'js', help: 'JavaScript instead of TypeScript' },
      { name: 'from', value: 'N', help: 'first step of the action log' },
      { name: 'to', value: 'N', help: 'last step of the action log' },
    ],
    build: (input) => {
      input.done();
      const fromStep = input.int('from');
      const toStep = input.int('to');
      return tool(
        'export_test',
        {
          ...(input.flag('js') ? { language: 'js' } : {}),
          ...(fromStep === undefined ? {} : { fromStep }),
          ...(toStep === undefined ? {} : { toStep }),
        },
        'session',
      );
    },
  },
  {
    name: 'replay',
    usage: '<file>',
    summary: 'Replay an exported spec on the current tab without the model; prints the healed spec',
    details: ['browsermesh export-test > checkout.spec.ts', 'browsermesh -s fresh replay checkout.spec.ts'],
    options: [{ name: 'no-heal', help: 'stop at a locator that finds no element or several' }],
    build: (input) => {
      const file = input.take('file');
      const heal = !input.flag('no-heal');
      input.done();
      return tool('replay', { spec: specFileOf(input, file), ...(heal ? {} : { heal: false }) });
    },
  },
  startStop('trace', 'trace', 'Record a Playwright trace of the session (stop saves it to `files`)'),
  {
    name: 'handoff',
    usage: '[reason]',
    summary: 'Ask a person to act on the current tab (prints the dashboard link); --wait for the hand-back',
    details: [
      'Needs the daemon started with --dashboard. The session waits for the person: it shows "needs you"',
      'on the dashboard; give the printed link to your user. `handoff --wait` waits for the hand-back',
      '(run it again while the status is "waiting"); `handoff --cancel` withdraws the request.',
      'The result says returned, timeout or cancelled, with the page URL and title; never what was typed.',
    ],
    options: [
      { name: 'wait', help: 'wait for the request made earlier' },
      { name: 'cancel', help: 'withdraw the request made earlier' },
    ],
    build: (input) => {
      const reason = input.takeOptional();
      input.done();
      const wait = input.flag('wait');
      const cancel = input.flag('cancel');
      if ([reason !== undefined, wait, cancel].filter(Boolean).length !== 1)
        throw new UsageError('handoff: give a reason, or --wait, or --cancel');
      return tool('request_human', wait ? { wait: true } : cancel ? { cancel: true } : { reason });
    },
  },
  startStop('record', 'recording', 'Record a video of the current tab (stop saves it to `files`)'),
  {
    name: 'files',
    usage: '[list | read <id> | save <id> <path> | keep <id> | remove <id>]',
    summary: "The session's files: downloads, PDFs, traces, recordings",
    build: (input) => {
      const action = choose(input, ['list', 'read', 'save', 'keep', 'remove'] as const, 'list');
      if (action === 'list') {
        input.done();
        return tool('files', {}, 'session');
      }
      const fileId = input.take('file id');
      if (action === 'save') {
        const path = pathFrom(input, input.take('path'));
        input.done();
        return { kind: 'file', source: 'session-file', args: { fileId }, path };
      }
      input.done();
      return tool('files', { action, fileId }, 'session');
    },
  },
  {
    name: 'state',
    usage: 'save <id> | load <id> | list | remove <id>',
    summary: 'Saved browser state (cookies, storage): save this session, or restart it from a saved one',
    build: (input) => {
      const action = choose(input, ['save', 'load', 'list', 'remove'] as const);
      if (action === 'list') {
        input.done();
        return tool('state_list', {}, 'none');
      }
      const stateId = input.take('state id');
      input.done();
      if (action === 'load') return { kind: 'state-load', stateId };
      return action === 'save'
        ? tool('state_save', { stateId }, 'session')
        : tool('state_remove', { stateId }, 'none');
    },
  },
  {
    name: 'sessions',
    usage: '[list | close <name>]',
    summary: 'The named sessions of this daemon',
    build: (input) => {
      const action = choose(input, ['list', 'close'] as const, 'list');
      const name = action === 'close' ? input.take('session name') : undefined;
      input.done();
      return { kind: 'sessions', action, ...(name === undefined ? {} : { name }) };
    },
  },
  {
    name: 'close',
    usage: '',
    summary: 'Close this session (-s NAME) and its tabs',
    build: () => ({ kind: 'close' }),
  },
  {
    name: 'daemon',
    usage: 'status|start|stop|restart',
    summary: 'The background daemon that holds the sessions',
    build: (input) => {
      const action = choose(input, ['status', 'start', 'stop', 'restart'] as const);
      input.done();
      if (action === 'start') return { kind: 'daemon-start' };
      if (action === 'restart') return { kind: 'daemon-restart' };
      return { kind: 'daemon', action };
    },
  },
  {
    name: 'skill',
    usage: 'install',
    summary: 'Install the SKILL.md where a coding agent looks for it',
    options: [
      { name: 'target', value: 'AGENT', help: 'claude (default), codex, cursor, gemini, or dir' },
      { name: 'dir', value: 'PATH', help: 'with --target dir: the folder to copy it into' },
    ],
    build: (input) => {
      choose(input, ['install'] as const);
      input.done();
      const dir = input.text('dir');
      return {
        kind: 'skill-install',
        target: input.text('target') ?? (dir === undefined ? 'claude' : 'dir'),
        ...(dir === undefined ? {} : { dir: pathFrom(input, dir) }),
      };
    },
  },
];

/** The script of `run`: the argument, the file of -f, or standard input (a heredoc). */
function specFileOf(input: CommandInput, file: string): string {
  try {
    return readFileSync(pathFrom(input, file), 'utf8');
  } catch {
    throw new UsageError(`replay: cannot read ${file}`);
  }
}

function scriptOf(input: CommandInput): string {
  const file = input.text('file');
  if (file !== undefined) {
    input.done();
    try {
      return readFileSync(pathFrom(input, file), 'utf8');
    } catch {
      throw new UsageError(`run: cannot read ${file}`);
    }
  }
  const inline = input.rest('script', 0).join(' ');
  if (inline !== '') return inline;
  const piped = input.readStdin();
  if (piped === undefined || piped.trim() === '')
    throw new UsageError('run: give the script as an argument, with -f FILE, or on stdin');
  return piped;
}
