import type { CliAction } from './protocol.js';

/** The shape of one shell command in the table (commands-*.ts): parsing, `--help` and docs/cli.md read it. */

export interface OptionSpec {
  /** Long name without dashes (`depth` for `--depth`). */
  name: string;
  short?: string;
  /** Placeholder of its value; absent for a switch. */
  value?: string;
  /** May be given more than once (collected into a list). */
  repeat?: boolean;
  help: string;
}

/** What only the client does (no daemon call). */
export type LocalAction =
  | { kind: 'skill-install'; target: string; dir?: string }
  | { kind: 'daemon-start' }
  | { kind: 'daemon-restart' };

export interface CommandSpec {
  name: string;
  aliases?: readonly string[];
  /** Arguments after the name, e.g. `<ref|locator> <value>`. */
  usage: string;
  summary: string;
  /** More lines for `browsermesh <command> --help`. */
  details?: readonly string[];
  options?: readonly OptionSpec[];
  /** Takes an element: a ref positional or the locator options. */
  target?: boolean;
  /**
   * `browsermesh --help`'s line for a family of commands (`cookie-list|get|…`): the text on the
   * first, false on the others, so the overview stays one screen.
   */
  helpLine?: { usage: string; summary: string } | false;
  build(input: CommandInput): CliAction | LocalAction;
}

/** A command's parsed arguments. */
export class CommandInput {
  private next = 0;
  constructor(
    readonly command: string,
    readonly positionals: readonly string[],
    readonly options: ReadonlyMap<string, string | true | string[]>,
    readonly cwd: string,
    /** Standard input, read only when the command needs it and it is not a terminal. */
    readonly readStdin: () => string | undefined,
  ) {}

  /** The next positional argument, or a usage error naming it. */
  take(what: string): string {
    const value = this.positionals[this.next];
    if (value === undefined) throw new UsageError(`${this.command}: missing ${what}`);
    this.next++;
    return value;
  }

  takeOptional(): string | undefined {
    const value = this.positionals[this.next];
    if (value !== undefined) this.next++;
    return value;
  }

  peek(): string | undefined {
    return this.positionals[this.next];
  }

  /** The rest of the positionals (at least `min`). */
  rest(what: string, min = 1): string[] {
    const values = this.positionals.slice(this.next);
    if (values.length < min) throw new UsageError(`${this.command}: missing ${what}`);
    this.next = this.positionals.length;
    return values;
  }

  /** Refuses positionals nobody took (a typo must not be silently ignored). */
  done(): void {
    const extra = this.positionals[this.next];
    if (extra !== undefined) throw new UsageError(`${this.command}: unexpected argument "${short(extra)}"`);
  }

  text(name: string): string | undefined {
    const value = this.options.get(name);
    if (Array.isArray(value)) return value[value.length - 1];
    return typeof value === 'string' ? value : undefined;
  }

  list(name: string): string[] | undefined {
    const value = this.options.get(name);
    if (value === undefined || value === true) return undefined;
    return Array.isArray(value) ? value : [value];
  }

  flag(name: string): boolean {
    return this.options.has(name);
  }

  int(name: string): number | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    if (!/^\d{1,9}$/.test(value)) throw new UsageError(`${this.command}: --${name} must be a whole number`);
    return Number(value);
  }
}

/** A command line the table cannot read: exit status 2, with the command's usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
