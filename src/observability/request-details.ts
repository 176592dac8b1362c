import type { Request } from 'playwright-core';
import { invalidArgument } from '../errors.js';
import { boundText } from '../text.js';
import { boundedRedacted, redactText, REDACTED, sanitizeUrl } from './sanitize.js';

/** One request as `browser_observe` details it: redacted and bounded, bodies as text only. */
export interface RequestDetails {
  requestId: string;
  method: string;
  url: string;
  status: number | null;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  requestBody?: string;
  responseBody?: string;
  /** Why a body is absent: 'binary' (not text), 'unavailable' (evicted, redirect, failed). */
  responseBodyOmitted?: 'binary' | 'unavailable';
  bodyTruncated?: boolean;
}

/** Headers whose whole value is a credential. */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|x-auth-token|x-csrf-token|x-xsrf-token)$|token|secret|session|auth/i;
/**
 * Form or JSON field names whose values are credentials (passwords typed into forms included). By
 * knowledge, not by guess: a field named just `key` is ordinary data (`{"key":"value"}` is shown as it
 * is); known secret values are redacted wherever they are, field name or not (src/secrets.ts).
 */
const SECRET_FIELD =
  /(passw|pwd|token|secret|auth|api[-_]?key|private[-_]?key|access[-_]?key|session|^sid$|credential|jwt|otp|cookie|cvv|cvc|card|^pin$)/i;
const TEXT_TYPE =
  /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded|graphql)|[^;]*\+json|[^;]*\+xml)/i;

/**
 * Details of a tracked request, read when asked (headers and bodies are never stored with the events).
 * Credentials in headers, and secret fields of form and JSON bodies, are replaced by REDACTED before
 * anything is bounded; the rest of the text goes through the same redaction as console text.
 */
export async function requestDetails(
  requestId: string,
  request: Request,
  limits: { maxStringChars: number; maxBodyChars: number },
): Promise<RequestDetails> {
  const response = await request.response().catch(() => null);
  const out: RequestDetails = {
    requestId,
    method: request.method().slice(0, 16),
    url: sanitizeUrl(request.url(), limits.maxStringChars) ?? REDACTED,
    status: response?.status() ?? null,
    requestHeaders: redactHeaders(await request.allHeaders().catch(() => ({})), limits.maxStringChars),
    responseHeaders: response
      ? redactHeaders(await response.allHeaders().catch(() => ({})), limits.maxStringChars)
      : {},
  };
  let truncated = false;
  const posted = request.postData();
  if (posted !== null) {
    const body = boundedRedacted(
      redactBody(posted, request.headers()['content-type'] ?? ''),
      limits.maxBodyChars,
    );
    out.requestBody = body.text;
    truncated ||= body.truncated;
  }
  const type = response?.headers()['content-type'] ?? '';
  if (response && !TEXT_TYPE.test(type)) out.responseBodyOmitted = 'binary';
  else if (response) {
    const raw = await response.text().catch(() => undefined);
    if (raw === undefined) out.responseBodyOmitted = 'unavailable';
    else {
      const body = boundedRedacted(redactBody(raw, type), limits.maxBodyChars);
      out.responseBody = body.text;
      truncated ||= body.truncated;
    }
  }
  if (truncated) out.bodyTruncated = true;
  return out;
}

export function redactHeaders(headers: Record<string, string>, maxChars: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).slice(0, 100)) {
    const key = name.toLowerCase().slice(0, 128);
    out[key] = SECRET_HEADER.test(key)
      ? REDACTED
      : boundText(redactText(value), maxChars, Number.MAX_SAFE_INTEGER).text;
  }
  return out;
}

/** Form and JSON bodies: secret fields' values go; anything else is free text. */
export function redactBody(body: string, contentType: string): string {
  if (/x-www-form-urlencoded/i.test(contentType) || /^[\w.%+-]+=[^&]*(&[\w.%+-]+=[^&]*)*$/.test(body)) {
    return body
      .split('&')
      .map((part) => {
        const eq = part.indexOf('=');
        const key = eq < 0 ? part : safeDecode(part.slice(0, eq));
        return eq >= 0 && SECRET_FIELD.test(key) ? `${part.slice(0, eq)}=${REDACTED}` : part;
      })
      .join('&');
  }
  try {
    return JSON.stringify(redactJson(JSON.parse(body) as unknown, 0));
  } catch {
    return body;
  }
}

function redactJson(value: unknown, depth: number): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    out[key] = SECRET_FIELD.test(key) ? REDACTED : redactJson(item, depth + 1);
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The request behind a requestId of this page's events; INVALID_ARGUMENT once evicted or unknown. */
export function checkedRequest(request: Request | undefined): Request {
  if (!request)
    throw invalidArgument('requestId', 'unknown, or too old (only the latest 100 requests keep details)');
  return request;
}
