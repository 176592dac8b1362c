/**
 * Named secrets (`--secrets FILE`, `NAME=value` lines): an agent fills or types `{{secret:NAME}}`
 * and the value reaches the page without ever being in the model's context; every tool result and
 * error has the values replaced by their `{{secret:NAME}}` reference again.
 */
import { invalidArgument } from './errors.js';

export type Secrets = Readonly<Record<string, string>>;

const REFERENCE = /^\{\{secret:([A-Za-z_][A-Za-z0-9_]{0,63})\}\}$/;

/** The text to send to the page: the secret's value for a `{{secret:NAME}}` reference, else `text`. */
export function resolveSecret(secrets: Secrets, text: string, field: string): string {
  const name = REFERENCE.exec(text)?.[1];
  if (name === undefined) return text;
  const value = Object.hasOwn(secrets, name) ? secrets[name] : undefined;
  // The name is the agent's own word, not a secret, but it is not echoed either: field only.
  if (value === undefined) throw invalidArgument(field, 'names no configured secret (see --secrets)');
  return value;
}

/** `text` with every secret value replaced by its reference (longest values first). */
export function redactSecrets(secrets: Secrets, text: string): string {
  let out = text;
  for (const [name, value] of sortedEntries(secrets)) out = out.split(value).join(`{{secret:${name}}}`);
  return out;
}

/** Every string inside `value` (objects, arrays) redacted; other values unchanged. */
export function redactSecretsDeep<T>(secrets: Secrets, value: T): T {
  if (Object.keys(secrets).length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactSecrets(secrets, v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, walk(inner)]));
    return v;
  };
  return walk(value) as T;
}

function sortedEntries(secrets: Secrets): Array<[string, string]> {
  return Object.entries(secrets)
    .filter(([, value]) => value !== '')
    .sort(([, a], [, b]) => b.length - a.length);
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
