import { isAbsolute, resolve } from 'node:path';
import { UsageError, type CommandInput, type OptionSpec } from './command-spec.js';
import type { CliAction } from './protocol.js';

/** Shared pieces of the command table. */

export const REF = /^@?e\d{1,7}$/;

/** The element options every element command takes (instead of a ref). */
export const LOCATOR_OPTIONS: readonly OptionSpec[] = [
  { name: 'role', value: 'ROLE', help: 'ARIA role, with --name: `--role button --name Save`' },
  { name: 'name', value: 'NAME', help: 'accessible name (with --role)' },
  { name: 'label', value: 'TEXT', help: 'form field by its label' },
  { name: 'text', value: 'TEXT', help: 'element by its text' },
  { name: 'placeholder', value: 'TEXT', help: 'field by its placeholder' },
  { name: 'testid', value: 'ID', help: 'element by data-testid' },
  { name: 'css', value: 'SELECTOR', help: 'CSS selector' },
];

export function tool(
  name: string,
  args: Record<string, unknown> = {},
  address: 'page' | 'session' | 'none' = 'page',
): CliAction {
  return { kind: 'tool', tool: `browser_${name}`, args, address };
}

/** A ref positional (`@e5` or `e5`), or the locator options; exactly one. */
export function takeTarget(input: CommandInput): { ref: string } | { locator: Record<string, string> } {
  const locator = locatorOf(input);
  const first = input.peek();
  if (first !== undefined && REF.test(first) && locator === undefined) {
    input.take('ref');
    return { ref: first.startsWith('@') ? first : `@${first}` };
  }
  if (locator !== undefined) return { locator };
  throw new UsageError(
    `${input.command}: give a ref from the snapshot (@e5) or a locator (--role R --name N, --label, --text, --placeholder, --testid, --css)`,
  );
}

/** The locator options as the tools' locator object, or undefined when none was given. */
export function locatorOf(input: CommandInput): Record<string, string> | undefined {
  const pairs: Array<[string, string]> = [
    ['role', 'role'],
    ['name', 'name'],
    ['label', 'label'],
    ['text', 'text'],
    ['placeholder', 'placeholder'],
    ['testid', 'testId'],
    ['css', 'css'],
  ];
  const locator: Record<string, string> = {};
  for (const [option, field] of pairs) {
    const value = input.text(option);
    if (value !== undefined) locator[field] = value;
  }
  if (locator.name !== undefined && locator.role === undefined)
    throw new UsageError(`${input.command}: --name goes with --role`);
  return Object.keys(locator).length === 0 ? undefined : locator;
}

/** A path as the user typed it, made absolute against the directory the command ran in. */
export function pathFrom(input: CommandInput, path: string): string {
  return isAbsolute(path) ? path : resolve(input.cwd, path);
}

/** A default output file name in the current directory: `browsermesh-<time>.<ext>`. */
export function defaultFile(input: CommandInput, ext: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return resolve(input.cwd, `browsermesh-${stamp}.${ext}`);
}

/** A choice among fixed words (a sub-command), or a usage error listing them. */
export function choose<T extends string>(input: CommandInput, words: readonly T[], fallback?: T): T {
  const word = input.peek();
  if (word !== undefined && (words as readonly string[]).includes(word)) {
    input.take('action');
    return word as T;
  }
  if (fallback !== undefined) return fallback;
  throw new UsageError(`${input.command}: expected one of ${words.join(', ')}`);
}
