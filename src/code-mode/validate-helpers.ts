/**
 * Small argument checkers for values decoded from the sandbox. Every failure throws a
 * `CallArgumentError` whose message names the member and the argument, so the script author (an
 * agent) can fix the call without guessing.
 */

export class CallArgumentError extends Error {
  override readonly name = 'CallArgumentError';

  /** The argument at fault, as the other faces name their fields (`ref`, an option's name). */
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export type Raw = Record<string, unknown>;

/** Describes a decoded value for error messages. The prelude encodes RegExps/functions as markers. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isRecord(value) && typeof value['$unsupported'] === 'string') return `a ${value['$unsupported']}`;
  if (isRecord(value) && '$regexp' in value) return 'a RegExp';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function fail(member: string, what: string, problem: string): never {
  // "argument 'ref'", "option 'bogus'" name their field in quotes; "options" is the field itself.
  const field = /'([^']+)'/.exec(what)?.[1] ?? what;
  throw new CallArgumentError(`${member}: ${what} ${problem}`, field);
}

export function str(
  member: string,
  what: string,
  value: unknown,
  maxChars: number,
  allowEmpty = false,
): string {
  if (typeof value !== 'string') fail(member, what, `must be a string, got ${describe(value)}`);
  if (!allowEmpty && value.length === 0) fail(member, what, 'must not be empty');
  if (value.length > maxChars) fail(member, what, `is too long (${value.length} chars, max ${maxChars})`);
  return value;
}

export function int(member: string, what: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    fail(member, what, `must be an integer, got ${describe(value)}`);
  }
  if (value < min || value > max) fail(member, what, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function num(member: string, what: string, value: unknown, limit: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fail(member, what, `must be a finite number, got ${describe(value)}`);
  }
  if (Math.abs(value) > limit) fail(member, what, `must be between -${limit} and ${limit}, got ${value}`);
  return value;
}

export function bool(member: string, what: string, value: unknown): boolean {
  if (typeof value !== 'boolean') fail(member, what, `must be true or false, got ${describe(value)}`);
  return value;
}

export function oneOf<T extends string>(
  member: string,
  what: string,
  value: unknown,
  allowed: readonly T[],
): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) {
    fail(member, what, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${show(value)}`);
  }
  return found;
}

/**
 * An optional options object: `undefined`/`null` mean "none"; unknown keys are refused (silently
 * ignoring e.g. `force: true` would change what the script means).
 */
export function options(member: string, value: unknown, allowed: readonly string[]): Raw {
  if (value === undefined || value === null) return {};
  if (!isRecord(value) || '$unsupported' in value) {
    fail(member, 'options', `must be an object, got ${describe(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (value[key] === undefined || allowed.includes(key)) continue;
    const supported = allowed.length > 0 ? `supported: ${allowed.join(', ')}` : 'it takes no options';
    fail(member, `option '${key}'`, `is not supported (${supported})`);
  }
  return value;
}

/** Reads an optional field with a checker; `undefined`/`null` mean "not given". */
export function opt<T>(value: unknown, check: (value: unknown) => T): T | undefined {
  return value === undefined || value === null ? undefined : check(value);
}

/** Playwright's `timeout` option (0 = "no per-call timeout": the script deadline still applies). */
export function timeoutOf(member: string, opts: Raw): { timeoutMs?: number } {
  const ms = opt(opts['timeout'], (v) => int(member, "option 'timeout'", v, 0, 600_000));
  return ms === undefined || ms === 0 ? {} : { timeoutMs: ms };
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value.slice(0, 40)}'` : describe(value);
}

const MAX_PATTERN_CHARS = 500;
/** A quantified group that itself holds a quantifier (`(a+)+`): exponential backtracking on the host. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]/;

/**
 * A RegExp the prelude sent as `{$regexp: {source, flags}}`: flags limited to i, m, s, u (g and y
 * carry state between tests), compiled here once so a bad pattern fails on the script's line.
 * `hostSide` patterns run in Node (URL matching), so nested quantifiers are refused there.
 */
export function pattern(
  member: string,
  what: string,
  value: unknown,
  hostSide: boolean,
): { source: string; flags: string } | undefined {
  // The prelude's marker, or a selector the host already parsed (the sandbox keeps what the host returned).
  const marked = isRecord(value) && isRecord(value['$regexp']) ? value['$regexp'] : undefined;
  const parsed = isRecord(value) && Object.keys(value).join() === 'source,flags' ? value : undefined;
  const regexp = marked ?? parsed;
  if (regexp === undefined) return undefined;
  const { source, flags } = regexp;
  if (typeof source !== 'string' || typeof flags !== 'string')
    return fail(member, what, 'is a malformed RegExp');
  if (source.length > MAX_PATTERN_CHARS)
    fail(member, what, `is too long a RegExp (${source.length} chars, max ${MAX_PATTERN_CHARS})`);
  if (!/^[imsu]*$/.test(flags)) fail(member, what, 'may only use the RegExp flags i, m, s and u');
  if (hostSide && NESTED_QUANTIFIER.test(source))
    fail(
      member,
      what,
      'is a RegExp with a nested quantifier such as (a+)+; simplify it or use a glob string',
    );
  try {
    new RegExp(source, flags);
  } catch {
    fail(member, what, 'is not a valid RegExp');
  }
  return { source, flags };
}

/** Escapes text for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
