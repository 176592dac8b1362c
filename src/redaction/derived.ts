/**
 * What a secret became on a page: a field with `maxlength` keeps only the head of the value typed
 * into it, so the field shows a string that is not the secret but gives most of it away. After a
 * secret is entered, the field's resulting value is remembered here for its session and redacted
 * like the secret itself (with the secret's reference). Bounded: a few values per session, a few
 * thousand sessions.
 */
import type { DerivedSecrets } from '../secrets.js';

const PER_SESSION = 16;
const SESSIONS = 4096;
const NONE: DerivedSecrets = [];
const bySession = new Map<string, DerivedSecrets>();

/** Remembers `value` (what the page kept of secret `name`) for the session's redaction. */
export function rememberDerivedSecret(sessionId: string, name: string, value: string): void {
  if (value === '') return;
  const known = bySession.get(sessionId) ?? NONE;
  if (known.some(([v]) => v === value)) return;
  // A new array each time: the redaction caches its tables by this identity.
  bySession.delete(sessionId);
  bySession.set(sessionId, [...known, [value, name] as const].slice(-PER_SESSION));
  if (bySession.size > SESSIONS) bySession.delete(bySession.keys().next().value ?? '');
}

/** The session's derived values (empty when none, or no session). */
export function derivedSecretsOf(sessionId: string | undefined): DerivedSecrets {
  return sessionId === undefined ? NONE : (bySession.get(sessionId) ?? NONE);
}
