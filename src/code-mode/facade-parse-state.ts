import type {
  AddCookiesCall,
  ClearCookiesCall,
  CookieArg,
  CookiesCall,
  EmulateMediaCall,
  MediaArg,
  RouteAbortReason,
  RouteAction,
  RouteCall,
  SelectTextCall,
  UnrouteCall,
} from './facade-calls.js';
import { ABORT_REASONS } from '../operations/state/abort-reasons.js';
import { parseSelector } from './facade-validate.js';
import {
  bool,
  fail,
  int,
  isRecord,
  num,
  oneOf,
  opt,
  options,
  pattern,
  str,
  timeoutOf,
  type Raw,
} from './validate-helpers.js';

/**
 * Parsers of the session-state members: page/context.route and unroute,
 * context.cookies/addCookies/clearCookies, page.emulateMedia and locator.selectText.
 */

/** Below the sandbox's 256 KiB per-call cap, so an oversize body gets this message, not a generic one. */
export const MAX_ROUTE_BODY_CHARS = 200_000;
const MAX_URL_CHARS = 2_048;
const MAX_HEADERS = 50;
const MAX_COOKIES = 50;
const MAX_COOKIE_URLS = 20;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,256}$/;
const FULFILL_KEYS = ['status', 'headers', 'contentType', 'body', 'json'];
const COOKIE_KEYS = ['name', 'value', 'url', 'domain', 'path', 'expires', 'httpOnly', 'secure', 'sameSite'];

/** A glob string, or a RegExp as the `/source/flags` text browser_route takes. */
function routeUrl(m: string, value: unknown): string {
  const regexp = pattern(m, "argument 'url'", value, true);
  if (regexp !== undefined) return `/${regexp.source}/${regexp.flags}`;
  if (isRecord(value) && value['$unsupported'] === 'function')
    fail(
      m,
      "argument 'url'",
      'must be a glob string or a RegExp (a predicate function cannot run per request)',
    );
  return str(m, "argument 'url'", value, MAX_URL_CHARS);
}

function headersOf(m: string, value: unknown): Record<string, string> {
  if (!isRecord(value)) return fail(m, "option 'headers'", 'must be an object of header names to strings');
  const entries = Object.entries(value);
  if (entries.length > MAX_HEADERS) fail(m, "option 'headers'", `has too many entries (max ${MAX_HEADERS})`);
  const out: Record<string, string> = {};
  for (const [name, text] of entries) {
    if (!HEADER_NAME.test(name)) fail(m, "option 'headers'", 'holds a name that is not an HTTP header name');
    out[name.toLowerCase()] = str(m, `header '${name}'`, text, 8_192, true);
  }
  return out;
}

function fulfill(m: string, raw: unknown, what: string): RouteAction {
  const o = options(`${m}: ${what}`, raw, FULFILL_KEYS);
  const action: Extract<RouteAction, { kind: 'fulfill' }> = { kind: 'fulfill' };
  const status = opt(o['status'], (v) => int(m, "option 'status'", v, 100, 599));
  if (status !== undefined) action.status = status;
  const headers = opt(o['headers'], (v) => headersOf(m, v));
  if (headers !== undefined) action.headers = headers;
  const contentType = opt(o['contentType'], (v) => str(m, "option 'contentType'", v, 127));
  if (o['body'] !== undefined && o['json'] !== undefined)
    fail(m, "option 'json'", 'cannot be combined with body');
  if (o['json'] !== undefined) {
    action.body = str(m, "option 'json'", JSON.stringify(o['json']), MAX_ROUTE_BODY_CHARS, true);
    action.contentType = contentType ?? 'application/json';
  } else if (o['body'] !== undefined && o['body'] !== null) {
    action.body = str(m, "option 'body'", o['body'], MAX_ROUTE_BODY_CHARS, true);
  }
  if (contentType !== undefined) action.contentType = contentType;
  return action;
}

function abortReason(m: string, value: unknown): RouteAbortReason {
  if (value === undefined || value === null || value === true) return 'failed';
  return oneOf(m, "argument 'errorCode'", value, ABORT_REASONS);
}

/** The handler as the prelude recorded it (see recordRoute in prelude.ts). */
function routeAction(m: string, raw: unknown): RouteAction {
  if (!isRecord(raw)) return fail(m, "argument 'handler'", 'is malformed');
  const kind = raw['kind'];
  if (kind === 'fulfill') return fulfill(m, raw['options'], 'route.fulfill');
  if (kind === 'abort') return { kind: 'abort', reason: abortReason(m, raw['reason']) };
  if (kind === 'continue') {
    const o = options(`${m}: route.continue`, raw['options'], ['headers']);
    const headers = opt(o['headers'], (v) => headersOf(m, v));
    return headers === undefined ? { kind: 'continue' } : { kind: 'continue', headers };
  }
  if (kind === 'data') return routeData(m, raw['value']);
  if (kind === 'readsRequest')
    fail(
      m,
      "argument 'handler'",
      'reads the request (route.request() or its second argument): browser_run runs a handler once, at registration, so it cannot see or branch on requests; add one route per URL pattern instead',
    );
  if (kind === 'many')
    fail(m, "argument 'handler'", 'answered more than once (call one of fulfill, abort or continue)');
  return fail(
    m,
    "argument 'handler'",
    'must call route.fulfill(), route.abort() or route.continue(), or be an object such as { status, body } or { abort: true }',
  );
}

/** `{ status, headers, contentType, body, json }` or `{ abort: true | reason }`. */
function routeData(m: string, value: unknown): RouteAction {
  if (!isRecord(value) || '$unsupported' in value)
    return fail(
      m,
      "argument 'handler'",
      'must be a function or an object such as { status, body } or { abort: true }',
    );
  if (value['abort'] === undefined || value['abort'] === false) return fulfill(m, value, 'handler');
  options(`${m}: handler`, value, ['abort']);
  return { kind: 'abort', reason: abortReason(m, value['abort']) };
}

function route(m: string, a: Raw): RouteCall {
  options(m, a['options'], []);
  return { op: 'route', url: routeUrl(m, a['url']), action: routeAction(m, a['handler']) };
}

function unroute(m: string, a: Raw): UnrouteCall {
  if (a['all'] === true) return { op: 'unroute' };
  return { op: 'unroute', url: routeUrl(m, a['url']) };
}

function cookieList(m: string, a: Raw): CookiesCall {
  const raw = a['urls'];
  if (raw === undefined || raw === null) return { op: 'cookies', urls: [] };
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  if (list.length > MAX_COOKIE_URLS)
    fail(m, "argument 'urls'", `has too many entries (max ${MAX_COOKIE_URLS})`);
  return { op: 'cookies', urls: list.map((v) => str(m, "argument 'urls'", v, 4_096)) };
}

function cookieArg(m: string, raw: unknown): CookieArg {
  const o = options(`${m}: cookie`, raw, COOKIE_KEYS);
  const text = (key: string, max: number, empty = false): string | undefined =>
    opt(o[key], (v) => str(m, `cookie '${key}'`, v, max, empty));
  const cookie: CookieArg = {
    name: str(m, "cookie 'name'", o['name'], 256),
    value: str(m, "cookie 'value'", o['value'], 4_096, true),
  };
  const fields = {
    url: text('url', 4_096),
    domain: text('domain', 253),
    path: text('path', 1_024),
    expires: opt(o['expires'], (v) => num(m, "cookie 'expires'", v, 1e11)),
    httpOnly: opt(o['httpOnly'], (v) => bool(m, "cookie 'httpOnly'", v)),
    secure: opt(o['secure'], (v) => bool(m, "cookie 'secure'", v)),
    sameSite: opt(o['sameSite'], (v) => oneOf(m, "cookie 'sameSite'", v, ['Strict', 'Lax', 'None'] as const)),
  };
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined) Object.assign(cookie, { [key]: value });
  return cookie;
}

function addCookies(m: string, a: Raw): AddCookiesCall {
  const raw = a['cookies'];
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_COOKIES)
    fail(m, "argument 'cookies'", `must be an array of 1 to ${MAX_COOKIES} cookies`);
  return { op: 'addCookies', cookies: raw.map((item) => cookieArg(m, item)) };
}

function clearCookies(m: string, a: Raw): ClearCookiesCall {
  const o = options(m, a['options'], ['name', 'domain', 'path']);
  const call: ClearCookiesCall = { op: 'clearCookies' };
  for (const key of ['name', 'domain', 'path'] as const) {
    const value = opt(o[key], (v) => str(m, `option '${key}'`, v, key === 'path' ? 1_024 : 256));
    if (value !== undefined) call[key] = value;
  }
  return call;
}

function emulateMedia(m: string, a: Raw): EmulateMediaCall {
  const o = options(m, a['options'], ['colorScheme', 'reducedMotion', 'forcedColors', 'media']);
  const media: MediaArg = {};
  const pick = <T extends string>(key: keyof MediaArg, allowed: readonly T[]): T | undefined =>
    opt(o[key], (v) => oneOf(m, `option '${key}'`, v, allowed));
  const colorScheme = pick('colorScheme', ['light', 'dark', 'no-preference'] as const);
  if (colorScheme !== undefined) media.colorScheme = colorScheme;
  const reducedMotion = pick('reducedMotion', ['reduce', 'no-preference'] as const);
  if (reducedMotion !== undefined) media.reducedMotion = reducedMotion;
  const forcedColors = pick('forcedColors', ['active', 'none'] as const);
  if (forcedColors !== undefined) media.forcedColors = forcedColors;
  const type = pick('media', ['screen', 'print'] as const);
  if (type !== undefined) media.media = type;
  if (Object.keys(media).length === 0)
    fail(m, 'options', 'must set colorScheme, reducedMotion, forcedColors or media');
  return { op: 'emulateMedia', ...media };
}

function selectText(m: string, a: Raw): SelectTextCall {
  const o = options(m, a['options'], ['text', 'occurrence', 'timeout']);
  const call: SelectTextCall = {
    op: 'selectText',
    target: parseSelector(m, a['target']),
    ...timeoutOf(m, o),
  };
  const text = opt(o['text'], (v) => str(m, "option 'text'", v, 10_000));
  if (text !== undefined) call.text = text;
  const occurrence = opt(o['occurrence'], (v) => int(m, "option 'occurrence'", v, 1, 1_000));
  if (occurrence !== undefined && text === undefined) fail(m, "option 'occurrence'", 'needs the text option');
  if (occurrence !== undefined) call.occurrence = occurrence;
  return call;
}

export const STATE_PARSERS = {
  route,
  unroute,
  cookies: cookieList,
  addCookies,
  clearCookies,
  emulateMedia,
  selectText,
};
