/**
 * One session's redaction, as its tool results get it: the `--secrets` values in every encoded form
 * (src/redaction/secret-forms.ts) and what pages kept of them (derived.ts), back to their
 * `{{secret:NAME}}` references. Used where a value leaves the engine other than through a tool
 * result: into the code-mode sandbox, into a match, into a cut.
 */
import { redactSecrets, type Secrets } from '../secrets.js';
import { TITLE_MAX_CHARS, toDisplayLine } from '../text.js';
import { derivedSecretsOf } from './derived.js';

/** What a redaction needs of a session: its id (for the derived values) and its secrets. */
export interface SecretScope {
  readonly id: string;
  readonly secrets: Secrets;
}

/** The mark a cut leaves at its end (text.ts, the snapshot's names and values). */
const CUT_MARK = '…';
/** Never part of a secret's form (a secrets file line holds no NUL an encoder would keep as one). */
const SENTINEL = '\u0000';

/** Whether the session has anything to redact (else every redaction is the identity). */
export function hasSecrets(scope: SecretScope): boolean {
  return Object.keys(scope.secrets).length > 0 || derivedSecretsOf(scope.id).length > 0;
}

/** `text` redacted for the session; a text cut with '…' also loses a secret's head just before the mark. */
export function redactText(scope: SecretScope, text: string): string {
  const derived = derivedSecretsOf(scope.id);
  if (!text.endsWith(CUT_MARK)) return redactSecrets(scope.secrets, text, derived);
  return `${redactSecrets(scope.secrets, text.slice(0, -CUT_MARK.length), derived)}${CUT_MARK}`;
}

/**
 * Every string inside `value` redacted for the session, as redactText: objects and arrays walked, keys
 * too (a script's evaluate can return a page value as a key).
 */
export function redactDeep<T>(scope: SecretScope, value: T): T {
  if (!hasSecrets(scope)) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(scope, v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [redactText(scope, k), walk(inner)]));
    return v;
  };
  return walk(value) as T;
}

/**
 * `text`, one of many short strings (a tree's names and values), redacted for the session: every form
 * of a secret inside it, but a head or tail of one only where the text was cut ('…'). A name that
 * merely starts or ends like a secret ("pass" for "password1") is not a cut and stays as it is.
 */
export function redactInside(scope: SecretScope, text: string): string {
  if (text.endsWith(CUT_MARK)) return redactText(scope, text);
  // Sentinels at both ends: the fragment check of redactSecrets then finds no end to look at.
  const padded = redactSecrets(scope.secrets, `${SENTINEL}${text}${SENTINEL}`, derivedSecretsOf(scope.id));
  return padded.startsWith(SENTINEL) && padded.endsWith(SENTINEL)
    ? padded.slice(1, -1)
    : redactText(scope, text);
}

/** A tree's string redacting function for the session (redactInside), or undefined when it has nothing to redact. */
export function redactorOf(scope: SecretScope): ((text: string) => string) | undefined {
  return hasSecrets(scope) ? (text) => redactInside(scope, text) : undefined;
}

/**
 * A page title made a display line: redacted BEFORE it is cut, so the cut keeps no head of a secret
 * (after it, the '…' would hide the head from the end-of-text fragment check), and again after the
 * cleaning (which may join the parts of an encoded form).
 */
export function titleLine(scope: SecretScope, title: string, maxChars = TITLE_MAX_CHARS): string {
  if (!hasSecrets(scope)) return toDisplayLine(title, maxChars);
  return redactText(scope, toDisplayLine(redactText(scope, title), maxChars));
}
