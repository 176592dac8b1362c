import { settingFlagKind } from '../../config/setting-flags.js';
import { closestName } from '../../suggest.js';
import { CommandInput, UsageError, type CommandSpec, type OptionSpec } from './command-spec.js';
import { LOCATOR_OPTIONS } from './command-helpers.js';
import { PAGE_COMMANDS } from './commands-page.js';
import { SESSION_COMMANDS } from './commands-session.js';
import { NETWORK_COMMANDS } from './commands-network.js';
import { STATE_COMMANDS } from './commands-state.js';

/** The one command table: the parser, `--help`, `<command> --help` and docs/cli.md all read it. */
export const COMMANDS: readonly CommandSpec[] = [
  ...PAGE_COMMANDS,
  ...STATE_COMMANDS,
  ...NETWORK_COMMANDS,
  ...SESSION_COMMANDS,
];

/** Options every command takes. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'session',
    short: 's',
    value: 'NAME',
    help: 'the named session (default: BROWSERMESH_SESSION or `default`)',
  },
  { name: 'json', help: 'print the structured result as JSON' },
  { name: 'timeout', value: 'MS', help: "this command's deadline in ms, queue wait included" },
  { name: 'help', short: 'h', help: 'this command’s help' },
];

/**
 * The options a command takes, each name once: its own first, then the locator's (a command whose own
 * option has a locator option's name, as `wait --text`, means its own), then the global ones.
 */
export function optionsOf(spec: CommandSpec): OptionSpec[] {
  const own = spec.options ?? [];
  const locator = spec.target ? LOCATOR_OPTIONS.filter((o) => !own.some((mine) => mine.name === o.name)) : [];
  return [...own, ...locator, ...GLOBAL_OPTIONS];
}

/** ` (did you mean X?)` when a command or option name is a likely typo of one of ours, else ''. */
function didYouMean(typed: string, candidates: Iterable<string>): string {
  const near = closestName(typed, candidates);
  return near === undefined ? '' : ` (did you mean ${near}?)`;
}

export function findCommand(word: string): CommandSpec | undefined {
  return COMMANDS.find((spec) => spec.name === word || spec.aliases?.includes(word));
}

export interface ParsedCommand {
  spec: CommandSpec;
  input: CommandInput;
  session?: string;
  json: boolean;
  help: boolean;
  /** Setting flags (`--headed`, `--data-dir D`, …), for the configuration loader. */
  configArgs: string[];
  /** `--timeout MS`: this call's deadline (the tool's `timeoutMs`), not the daemon's default. */
  timeoutMs?: number;
}

/**
 * The command's action, with `--timeout` as its tool call's `timeoutMs`. A command that is not one
 * tool call (open, run from a file, tabs, …) refuses `--timeout` rather than ignore it.
 */
export function actionOf(parsed: ParsedCommand): ReturnType<CommandSpec['build']> {
  const action = parsed.spec.build(parsed.input);
  if (parsed.timeoutMs === undefined) return action;
  if (action.kind !== 'tool')
    throw new UsageError(`${parsed.spec.name}: --timeout applies to commands that make one page call`);
  return { ...action, args: { ...action.args, timeoutMs: parsed.timeoutMs } };
}

/** Reads `<command> [args] [options]`; setting flags may appear anywhere and pass through. */
export function parseCommand(
  argv: readonly string[],
  cwd: string,
  readStdin: () => string | undefined,
): ParsedCommand {
  const [word = '', ...rest] = argv;
  const spec = findCommand(word);
  if (!spec) {
    const names = COMMANDS.flatMap((command) => [command.name, ...(command.aliases ?? [])]);
    throw new UsageError(
      `unknown command "${word.slice(0, 30)}"${didYouMean(word, names)} (see browsermesh --help)`,
    );
  }
  const known = optionsOf(spec);
  const positionals: string[] = [];
  const options = new Map<string, string | true | string[]>();
  const configArgs: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    if (arg === '--') {
      positionals.push(...rest.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-' || /^-\d/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = splitOption(arg);
    const option = known.find((o) => (arg.startsWith('--') ? o.name === name : o.short === name));
    if (option) {
      const value = option.value === undefined ? true : (inline ?? rest[++i]);
      if (value === undefined) throw new UsageError(`${spec.name}: --${option.name} needs ${option.value}`);
      const previous = options.get(option.name);
      options.set(
        option.name,
        option.repeat && Array.isArray(previous)
          ? [...previous, String(value)]
          : option.repeat
            ? [String(value)]
            : value,
      );
      continue;
    }
    const kind = arg.startsWith('--') ? settingFlagKind(name) : undefined;
    if (kind === undefined)
      throw new UsageError(
        `${spec.name}: unknown option ${arg.slice(0, 40)}${didYouMean(
          arg.replace(/^-+/, '').split('=')[0] ?? '',
          known.map((o) => o.name),
        ).replace(/mean (\S+)\?/, 'mean --$1?')} (see browsermesh ${spec.name} --help)`,
      );
    configArgs.push(arg);
    if (kind === 'value' && inline === undefined) {
      const value = rest[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      configArgs.push(value);
    }
  }
  const session = options.get('session');
  const timeout = options.get('timeout');
  const timeoutMs = typeof timeout === 'string' ? Number(timeout) : undefined;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
    throw new UsageError(`${spec.name}: --timeout takes a whole number of milliseconds above 0`);
  return {
    spec,
    input: new CommandInput(spec.name, positionals, options, cwd, readStdin),
    ...(typeof session === 'string' ? { session } : {}),
    json: options.has('json'),
    help: options.has('help'),
    configArgs,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
}

function splitOption(arg: string): [string, string | undefined] {
  const body = arg.replace(/^--?/, '');
  const eq = body.indexOf('=');
  return eq < 0 ? [body, undefined] : [body.slice(0, eq), body.slice(eq + 1)];
}

/** `browsermesh --help`'s command part: one line per command. */
export function commandsHelp(): string {
  const lines = ['Shell commands (for coding agents; a per-user daemon keeps the sessions):', ''];
  for (const spec of COMMANDS) {
    if (spec.helpLine === false) continue;
    const { usage, summary } = spec.helpLine ?? {
      usage: `${spec.name} ${spec.usage}`,
      summary: spec.summary,
    };
    lines.push(`  ${usage.trimEnd().padEnd(34)} ${summary}`);
  }
  lines.push(
    '',
    '  Every command: -s NAME (named session), --json (structured result), --help.',
    '  Element commands take a ref from the snapshot (@e5 or e5) or --role R --name N, --label, --text, --placeholder, --testid, --css.',
    '  Errors go to stderr as CODE: message; exit status 2 = usage error, 1 = page or tool error.',
  );
  return `${lines.join('\n')}\n`;
}

/** `browsermesh <command> --help`. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [
    `Usage: browsermesh ${spec.name} ${spec.usage} [options]`.replace(/ +/g, ' '),
    '',
    spec.summary,
  ];
  if (spec.aliases) lines.push(`Also: ${spec.aliases.join(', ')}`);
  if (spec.details) lines.push('', ...spec.details);
  const options = optionsOf(spec);
  lines.push('', 'Options:');
  for (const option of options) lines.push(`  ${optionUsage(option).padEnd(26)} ${option.help}`);
  return `${lines.join('\n')}\n`;
}

export function optionUsage(option: OptionSpec): string {
  const names = option.short ? `-${option.short}, --${option.name}` : `--${option.name}`;
  return option.value ? `${names} ${option.value}` : names;
}

export { UsageError };
