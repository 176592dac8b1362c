/**
 * A Playwright trace holds whatever the session saw: action parameters (every filled value), DOM
 * snapshots, network entries with their headers, cookies and bodies, console text. Before a trace is
 * offered, each of its text entries has the session's secrets replaced by their references (in every
 * form src/redaction/secret-forms.ts knows), values typed into secret fields replaced, and in the
 * event and network logs every credential header and cookie value replaced. Binary entries
 * (screenshots) are kept: they show what the page rendered (a password field renders as dots).
 */
import { redactSecrets, redactSecretsDeep, type DerivedSecrets, type Secrets } from '../secrets.js';

export interface TraceScrub {
  secrets: Secrets;
  /** What the session's pages kept of secrets, and values typed into secret fields. */
  derived: DerivedSecrets;
}

export const REDACTED = '[redacted]';
const CREDENTIAL_HEADER = /^(?:cookie|set-cookie|authorization|proxy-authorization|x-api-key|x-auth-token)$/i;
/** Event and network logs: one JSON object per line. */
const JSON_LINES = /\.(?:trace|network)$/;

/** The entry's bytes with secrets scrubbed; binary (non-UTF-8, or NUL-holding) bytes unchanged. */
export function scrubTraceEntry(name: string, data: Buffer, scrub: TraceScrub): Buffer {
  if (data.includes(0)) return data;
  const text = data.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(data)) return data;
  const out = JSON_LINES.test(name)
    ? text
        .split('\n')
        .map((line) => scrubLine(line, scrub))
        .join('\n')
    : redactSecrets(scrub.secrets, text, scrub.derived);
  return out === text ? data : Buffer.from(out, 'utf8');
}

function scrubLine(line: string, scrub: TraceScrub): string {
  if (line.trim() === '') return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return redactSecrets(scrub.secrets, line, scrub.derived);
  }
  return JSON.stringify(redactSecretsDeep(scrub.secrets, withoutCredentials(parsed), scrub.derived));
}

/** Credential headers (`{name, value}` pairs) and every cookie's value replaced, at any depth. */
function withoutCredentials(value: unknown, inCookies = false): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutCredentials(item, inCookies));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const credential =
    typeof record.name === 'string' &&
    typeof record.value === 'string' &&
    (inCookies || CREDENTIAL_HEADER.test(record.name));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(record)) {
    out[key] = credential && key === 'value' ? REDACTED : withoutCredentials(inner, key === 'cookies');
  }
  return out;
}
