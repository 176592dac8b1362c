import { boundText } from '../text.js';

/**
 * Best-effort redaction for everything observability keeps. URLs lose credentials and fragments and
 * have sensitive query values replaced; free text has secret-looking assignments, bearer tokens, JWTs
 * and embedded URLs redacted. Redaction happens before bounding, so a cut never exposes half a secret
 * that a full match would have hidden.
 */

export const REDACTED = 'REDACTED';

/** Query keys whose values are treated as secrets (matched against the decoded key). */
const SENSITIVE_KEY =
  /(token|secret|passw|pwd|auth|api[-_]?key|^key$|[-_.]key$|^sig$|signature|session|^sid$|^code$|credential|jwt|otp|cookie|ticket|nonce)/i;

const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'<>`]+/gi;
const ASSIGNMENT =
  /\b([\w.-]*(?:token|secret|passw(?:or)?d|pwd|api[-_]?key|apikey|auth|session|cookie|credential|jwt)[\w.-]*)(\s*[=:]\s*)(["']?)([^\s"'&,;)}\]]+)/gi;
const SCHEME_TOKEN = /\b(Bearer|Basic|Token)\s+[\w.~+/=-]{6,}/gi;
const JWT = /\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/g;

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

/**
 * The URL as it may be kept: http(s) only (anything else, data: and blob: included, gives undefined),
 * no credentials, no fragment, sensitive query values redacted, at most `maxChars` code points.
 */
export function sanitizeUrl(raw: string, maxChars: number): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) return undefined;
  url.username = '';
  url.password = '';
  url.hash = '';
  url.search = redactQuery(url.search);
  return boundText(url.href, maxChars, Number.MAX_SAFE_INTEGER).text;
}

/** Keeps every parameter byte-for-byte except the values of sensitive keys. */
function redactQuery(search: string): string {
  if (search.length <= 1) return search;
  const parts = search
    .slice(1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return part;
      const key = safeDecode(part.slice(0, eq));
      return SENSITIVE_KEY.test(key) ? `${part.slice(0, eq)}=${REDACTED}` : part;
    });
  return `?${parts.join('&')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Redacts secret-looking fragments of free text (console messages, error messages). */
export function redactText(text: string): string {
  return text
    .replace(URL_IN_TEXT, (match) => sanitizeUrlInText(match))
    .replace(SCHEME_TOKEN, (_match, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(
      ASSIGNMENT,
      (_match, key: string, sep: string, quote: string) => `${key}${sep}${quote}${REDACTED}`,
    );
}

function sanitizeUrlInText(match: string): string {
  try {
    const url = new URL(match);
    url.username = '';
    url.password = '';
    url.search = redactQuery(url.search);
    return url.href;
  } catch {
    return REDACTED;
  }
}

/**
 * Redacts, then bounds to `maxChars` code points. Very long input is pre-cut generously first so a
 * megabyte console line costs little; the pre-cut is far beyond what is kept.
 */
export function boundedRedacted(text: string, maxChars: number): { text: string; truncated: boolean } {
  const preCut = text.length > maxChars * 4 + 1024 ? text.slice(0, maxChars * 4 + 1024) : text;
  const bounded = boundText(redactText(preCut), maxChars, Number.MAX_SAFE_INTEGER);
  return { text: bounded.text, truncated: bounded.truncated || preCut.length < text.length };
}
