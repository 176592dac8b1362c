/**
 * Values the agent typed into secret fields (password, one-time code, card number) without naming a
 * `--secrets` entry: remembered per session so that what records the session wholesale (a
 * Playwright trace) can scrub them. Bounded: a few values per session, a few thousand sessions.
 */
import { derivedSecretsOf } from './derived.js';

const PER_SESSION = 16;
const SESSIONS = 4096;
const bySession = new Map<string, readonly string[]>();

/** Remembers `value` as typed into a secret field of the session. */
export function rememberTypedSecret(sessionId: string, value: string): void {
  if (value === '') return;
  const known = bySession.get(sessionId) ?? [];
  if (known.includes(value)) return;
  bySession.delete(sessionId);
  bySession.set(sessionId, [...known, value].slice(-PER_SESSION));
  if (bySession.size > SESSIONS) bySession.delete(bySession.keys().next().value ?? '');
}

/** The session's typed secret values (empty when none). */
export function typedSecretsOf(sessionId: string): readonly string[] {
  return bySession.get(sessionId) ?? [];
}

/** Every value that must not come back for the session: secrets, what pages kept of them, typed values. */
export function secretValuesOf(secrets: Readonly<Record<string, string>>, sessionId: string): string[] {
  return [
    ...Object.values(secrets),
    ...derivedSecretsOf(sessionId).map(([value]) => value),
    ...typedSecretsOf(sessionId),
  ];
}
