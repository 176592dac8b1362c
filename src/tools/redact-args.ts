import type { ErrorDetails, SerializedError } from '../errors.js';

/** Shorter strings (Enter, a, true) say nothing secret and are too common to scrub. */
const MIN_SCRUBBED_CHARS = 4;
/**
 * The fields that carry data that may be secret (what to type or fill — a password —, an option's
 * label, a URL with a token). Locators are left alone: ELEMENT_NOT_FOUND says what was searched,
 * which is the point of that error. So are a key name and a script: a bad key name and the script's
 * own exception (`x is not defined`) are the point of their errors, and a secret that lands there
 * is still redacted by value (the --secrets redaction runs on every error after this).
 */
const DATA_KEYS = new Set(['value', 'text', 'label', 'url']);
/**
 * What was searched for: a locator's `label` or `text` is the caller's own search, not data to enter,
 * and is quoted by ELEMENT_NOT_FOUND (redact by knowledge, not by guess: a secret in it is still
 * redacted by value).
 */
const SEARCH_KEYS = new Set(['locator']);
const REDACTED = '[redacted]';

/**
 * The last line of defence for "no argument value in any error": whatever an operation put in its
 * message, hint or details, every data string the caller sent (a key name, a value to fill, text
 * to type, a URL) is replaced before the error crosses the boundary. Operations already avoid quoting
 * values; this catches the ones that forget, in one place instead of in every tool.
 */
export function redactArgumentValues(
  error: SerializedError,
  args: unknown,
  extra: readonly string[] = [],
): SerializedError {
  const values = [...new Set([...stringLeaves(args), ...extra])]
    .filter((value) => value.length >= MIN_SCRUBBED_CHARS)
    .sort((a, b) => b.length - a.length);
  if (values.length === 0) return error;
  const scrub = (text: string): string =>
    values.reduce((out, value) => out.split(value).join(REDACTED), text);
  const out: SerializedError = { ...error, message: scrub(error.message) };
  if (error.recoveryHint !== undefined) out.recoveryHint = scrub(error.recoveryHint);
  if (error.details !== undefined) out.details = scrubDetails(error.details, scrub);
  return out;
}

function scrubDetails(details: ErrorDetails, scrub: (text: string) => string): ErrorDetails {
  const out: ErrorDetails = {};
  for (const [key, value] of Object.entries(details)) {
    if (typeof value === 'string') out[key] = scrub(value);
    else if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string'))
      out[key] = value.map(scrub);
    else out[key] = value;
  }
  return out;
}

function stringLeaves(value: unknown, key = '', depth = 0): string[] {
  if (depth > 8 || SEARCH_KEYS.has(key)) return [];
  if (typeof value === 'string') return DATA_KEYS.has(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => stringLeaves(item, key, depth + 1));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, k, depth + 1));
  return [];
}
