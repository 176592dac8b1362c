/**
 * Named secrets (`--secrets FILE`, `NAME=value` lines): an agent fills or types `{{secret:NAME}}`
 * and the value reaches the page without ever being in the model's context; every tool result and
 * error has the values replaced by their `{{secret:NAME}}` reference again.
 */
import { invalidArgument } from './errors.js';
import { MIN_FRAGMENT_CHARS, secretForms } from './redaction/secret-forms.js';

export type Secrets = Readonly<Record<string, string>>;
/** Values a page kept of a secret (a `maxlength` field's head of it), each with the secret's name. */
export type DerivedSecrets = ReadonlyArray<readonly [value: string, name: string]>;
const NO_DERIVED: DerivedSecrets = [];

const REFERENCE = /^\{\{secret:([A-Za-z_][A-Za-z0-9_]{0,63})\}\}$/;

/** The secret's name when `text` is exactly a `{{secret:NAME}}` reference. */
export function secretName(text: string): string | undefined {
  return REFERENCE.exec(text)?.[1];
}

/** The text to send to the page: the secret's value for a `{{secret:NAME}}` reference, else `text`. */
export function resolveSecret(secrets: Secrets, text: string, field: string): string {
  const name = secretName(text);
  if (name === undefined) return text;
  const value = Object.hasOwn(secrets, name) ? secrets[name] : undefined;
  // The name is the agent's own word, not a secret, but it is not echoed either: field only.
  if (value === undefined) throw invalidArgument(field, 'names no configured secret (see --secrets)');
  return value;
}

/**
 * `text` with every secret replaced by its reference: each value in every form an ordinary encoder
 * gives it (JSON, HTML, percent/form encoding, base64: src/redaction/secret-forms.ts), longest first,
 * and a fragment of one left at either end of a cut text (a read at an offset, a value cut short).
 */
export function redactSecrets(secrets: Secrets, text: string, derived = NO_DERIVED): string {
  const table = formsOf(secrets, derived);
  let out = text;
  for (const [form, reference] of table.forms) if (out.includes(form)) out = out.split(form).join(reference);
  return redactFragments(out, table.raw);
}

/** Every string inside `value` (objects, arrays) redacted; other values unchanged. */
export function redactSecretsDeep<T>(secrets: Secrets, value: T, derived = NO_DERIVED): T {
  if (Object.keys(secrets).length === 0 && derived.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactSecrets(secrets, v, derived);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, walk(inner)]));
    return v;
  };
  return walk(value) as T;
}

interface FormTable {
  forms: Array<[string, string]>;
  raw: Array<[string, string]>;
}

const tables = new WeakMap<Secrets, WeakMap<DerivedSecrets, FormTable>>();

function formsOf(secrets: Secrets, derived: DerivedSecrets): FormTable {
  let bySecrets = tables.get(secrets);
  if (!bySecrets) tables.set(secrets, (bySecrets = new WeakMap()));
  let table = bySecrets.get(derived);
  if (!table) {
    const raw = [
      ...Object.entries(secrets).map(([name, value]): [string, string] => [value, name]),
      ...derived.map(([value, name]): [string, string] => [value, name]),
    ]
      .filter(([value]) => value !== '')
      .map(([value, name]): [string, string] => [value, `{{secret:${name}}}`]);
    const forms = raw
      .flatMap(([value, reference]) => secretForms(value).map((form): [string, string] => [form, reference]))
      .sort(([a], [b]) => b.length - a.length);
    table = { forms, raw };
    bySecrets.set(derived, table);
  }
  return table;
}

/** A secret's head at the end of `text`, or its tail at the start: what a cut or an offset leaves. */
function redactFragments(text: string, raw: Array<[string, string]>): string {
  let out = text;
  for (const [value, reference] of raw) {
    for (let n = value.length - 1; n >= MIN_FRAGMENT_CHARS; n--) {
      if (out.endsWith(value.slice(0, n))) {
        out = out.slice(0, out.length - n) + reference;
        break;
      }
    }
    for (let n = value.length - 1; n >= MIN_FRAGMENT_CHARS; n--) {
      if (out.startsWith(value.slice(value.length - n))) {
        out = reference + out.slice(n);
        break;
      }
    }
  }
  return out;
}

/** Parses `NAME=value` lines (blank lines and # comments skipped); throws with a line number only. */
export function parseSecretsFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const eq = line.indexOf('=');
    const name = line.slice(0, eq).trim();
    if (eq < 1 || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name))
      throw new Error(`line ${index + 1} must be NAME=value`);
    out[name] = line.slice(eq + 1);
  });
  return out;
}
