import type {
  ElementSelector,
  RoleStateOptions,
  SelectorBase,
  SelectorStep,
  TextPattern,
} from './facade-calls.js';
import {
  bool,
  escapeRegExp,
  fail,
  int,
  isRecord,
  opt,
  options,
  pattern,
  str,
  type Raw,
} from './validate-helpers.js';

/**
 * Host-side validation of locator chains built inside the sandbox. The prelude asks for this when a
 * locator is created (so a bad `getByRole` option fails on the line that wrote it) and the host
 * checks again on every call, because nothing coming out of the sandbox is trusted.
 */

export const MAX_TEXT_CHARS = 2_000;
export const MAX_SELECTOR_STEPS = 20;
const MAX_NTH = 100_000;

const ROLE_FLAGS = ['checked', 'disabled', 'expanded', 'pressed', 'selected', 'includeHidden'] as const;
const ROLE_OPTIONS = ['name', 'exact', ...ROLE_FLAGS, 'level'];
const TEXT_KINDS = ['text', 'label', 'placeholder', 'altText', 'title'] as const;

export function parseSelector(member: string, raw: unknown): ElementSelector {
  if (!isRecord(raw) || !Array.isArray(raw['steps'])) fail(member, 'locator', 'is malformed');
  const steps = raw['steps'];
  if (steps.length > MAX_SELECTOR_STEPS) {
    fail(member, 'locator chain', `is too long (${steps.length} steps, max ${MAX_SELECTOR_STEPS})`);
  }
  return { base: parseBase(member, raw['base']), steps: steps.map((step) => parseStep(member, step)) };
}

/** Normalizes `@e5` / `e5` to `@e5`. */
export function parseRef(member: string, value: unknown): string {
  const ref = str(member, "argument 'ref'", value, 20);
  const match = /^@?e(\d{1,9})$/.exec(ref);
  if (match === null)
    fail(member, "argument 'ref'", `must look like '@e5' (a ref from page.snapshot()), got '${ref}'`);
  return `@e${match[1] ?? ''}`;
}

function parseBase(member: string, raw: unknown): SelectorBase {
  if (!isRecord(raw)) fail(member, 'locator', 'is malformed');
  const kind = raw['kind'];
  if (kind === 'css') {
    const selector = str(member, "argument 'selector'", raw['selector'], MAX_TEXT_CHARS);
    baseOptions(member, raw, ['selector'], []);
    return { kind, selector };
  }
  if (kind === 'role') return parseRole(member, raw);
  const textKind = TEXT_KINDS.find((candidate) => candidate === kind);
  if (textKind !== undefined) {
    const exact = opt(baseOptions(member, raw, ['text'], ['exact'])['exact'], (v) =>
      bool(member, "option 'exact'", v),
    );
    const text = textArgument(member, raw['text'], exact === true);
    return exact === undefined || typeof text !== 'string'
      ? { kind: textKind, text }
      : { kind: textKind, text, exact };
  }
  if (kind === 'testId') {
    const testId = str(member, "argument 'testId'", raw['testId'], MAX_TEXT_CHARS);
    baseOptions(member, raw, ['testId'], []);
    return { kind, testId };
  }
  if (kind === 'ref') {
    baseOptions(member, raw, ['ref'], []);
    return { kind, ref: parseRef(member, raw['ref']) };
  }
  return fail(member, 'locator', 'has an unknown kind');
}

const MAX_TEXT_LIST = 10;

/**
 * What getBy*Text takes: a string, a RegExp (as Playwright does), or a list of strings meaning any of
 * them — turned into one pattern with Playwright's string semantics (case-insensitive substring, or
 * the whole text with exact).
 */
function textArgument(member: string, value: unknown, exact: boolean): string | TextPattern {
  const what = "argument 'text'";
  const regexp = pattern(member, what, value, false);
  if (regexp !== undefined) return regexp;
  if (!Array.isArray(value)) return str(member, what, value, MAX_TEXT_CHARS);
  if (value.length === 0 || value.length > MAX_TEXT_LIST)
    fail(member, what, `must list 1 to ${MAX_TEXT_LIST} texts, got ${value.length}`);
  const alternatives = value.map((item) => escapeRegExp(str(member, what, item, MAX_TEXT_CHARS)));
  const source = alternatives.join('|');
  return exact ? { source: `^\\s*(?:${source})\\s*$`, flags: '' } : { source, flags: 'i' };
}

function parseRole(member: string, raw: Raw): SelectorBase {
  const role = str(member, "argument 'role'", raw['role'], 40);
  if (!/^[a-z]+$/.test(role))
    fail(member, "argument 'role'", `must be an ARIA role such as 'button', got '${role}'`);
  const opts = baseOptions(member, raw, ['role'], ROLE_OPTIONS);
  const out: SelectorBase & RoleStateOptions = { kind: 'role', role };
  const name = opt(opts['name'], (v) => str(member, "option 'name'", v, MAX_TEXT_CHARS, true));
  if (name !== undefined) out.name = name;
  const exact = opt(opts['exact'], (v) => bool(member, "option 'exact'", v));
  if (exact !== undefined) out.exact = exact;
  for (const flag of ROLE_FLAGS) {
    const value = opt(opts[flag], (v) => bool(member, `option '${flag}'`, v));
    if (value !== undefined) out[flag] = value;
  }
  const level = opt(opts['level'], (v) => int(member, "option 'level'", v, 1, 6));
  if (level !== undefined) out.level = level;
  return out;
}

/** The options part of a base (everything but `kind` and its positional argument). */
function baseOptions(member: string, raw: Raw, positional: string[], allowed: string[]): Raw {
  const rest: Raw = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key !== 'kind' && !positional.includes(key)) rest[key] = value;
  }
  return options(member, rest, allowed);
}

function parseStep(member: string, raw: unknown): SelectorStep {
  if (!isRecord(raw)) fail(member, 'locator', 'is malformed');
  const { kind, ...rest } = raw;
  if (kind === 'nth') {
    options(member, rest, ['index']);
    return { kind, index: int(member, "argument 'index'", rest['index'], -1, MAX_NTH) };
  }
  if (kind === 'within') {
    options(member, rest, ['base']);
    return { kind, base: parseBase(member, rest['base']) };
  }
  if (kind === 'filter') return parseFilter(member, rest);
  return fail(member, 'locator', 'has an unknown step');
}

function parseFilter(member: string, raw: Raw): SelectorStep {
  const opts = options(member, raw, ['hasText', 'hasNotText', 'visible']);
  const step: SelectorStep = { kind: 'filter' };
  const hasText = opt(opts['hasText'], (v) => str(member, "option 'hasText'", v, MAX_TEXT_CHARS));
  if (hasText !== undefined) step.hasText = hasText;
  const hasNotText = opt(opts['hasNotText'], (v) => str(member, "option 'hasNotText'", v, MAX_TEXT_CHARS));
  if (hasNotText !== undefined) step.hasNotText = hasNotText;
  const visible = opt(opts['visible'], (v) => bool(member, "option 'visible'", v));
  if (visible !== undefined) step.visible = visible;
  return step;
}
