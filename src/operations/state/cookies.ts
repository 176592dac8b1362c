import type { BrowserContext, Cookie } from 'playwright-core';
import { withDeadline, type OperationContext } from '../../engine/runtime.js';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';

/**
 * One session's cookies, one at a time: list (filtered), get by name, set, delete, clear. Values of
 * credential-like cookies are redacted in listings (`get` by name returns them; the values of
 * `--secrets` stay redacted everywhere, by the tool boundary). A cookie for a host the URL policy
 * refuses is refused too: it would hand a page's credentials to a site no page may load.
 */

export type CookieAction = 'list' | 'get' | 'set' | 'delete' | 'clear';

export interface CookieInput {
  action: CookieAction;
  name?: string | undefined;
  value?: string | undefined;
  url?: string | undefined;
  domain?: string | undefined;
  path?: string | undefined;
  /** Unix time in seconds; absent = a session cookie. */
  expires?: number | undefined;
  httpOnly?: boolean | undefined;
  secure?: boolean | undefined;
  sameSite?: 'Strict' | 'Lax' | 'None' | undefined;
}

export interface CookieView {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
  /** The value was left out (a credential-like name); ask for it with get. */
  redacted?: true;
}

export interface CookieResult {
  cookies?: CookieView[];
  /** Cookies matching the filter (beyond the listed ones too). */
  total?: number;
  truncated?: boolean;
  set?: true;
  removed?: number;
}

export const MAX_LISTED_COOKIES = 200;
const MAX_VALUE_CHARS = 4096;
/** RFC 6265 cookie-name token characters. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,256}$/;
/** RFC 6265 cookie-octets (no controls, whitespace, double quote, comma, semicolon or backslash). */
const COOKIE_VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
const DOMAIN = /^\.?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$|^\[[0-9A-Fa-f:.]+\]$/;
/** Names that hold a login or a token: the same words the observability redaction treats as secret. */
const CREDENTIAL_NAME =
  /(token|secret|passw|pwd|auth|api[-_]?key|^key$|[-_.]key$|^sig$|signature|session|sess|^sid$|credential|jwt|otp|csrf|xsrf|ticket|nonce|login|remember)/i;
export const REDACTED_VALUE = '[redacted]';

export function cookies(ctx: OperationContext, input: CookieInput): Promise<CookieResult> {
  return withDeadline(runCookies(ctx, input), ctx.deadline, ctx.signal);
}

async function runCookies(ctx: OperationContext, input: CookieInput): Promise<CookieResult> {
  const context = ctx.session.browserContext;
  switch (input.action) {
    case 'list': {
      const all = filtered(await context.cookies(), input);
      const listed = all.slice(0, MAX_LISTED_COOKIES).map((c) => toView(c, credentialName(c.name)));
      return { cookies: listed, total: all.length, truncated: all.length > listed.length };
    }
    case 'get': {
      const name = requireName(input);
      const found = filtered(await context.cookies(), { ...input, name });
      return {
        cookies: found.slice(0, MAX_LISTED_COOKIES).map((c) => toView(c, false)),
        total: found.length,
      };
    }
    case 'set':
      await context.addCookies([toNewCookie(ctx, input)]);
      return { set: true };
    case 'delete':
      return {
        removed: await remove(
          context,
          filtered(await context.cookies(), { ...input, name: requireName(input) }),
        ),
      };
    case 'clear': {
      const all = await context.cookies();
      if (
        input.name === undefined &&
        input.domain === undefined &&
        input.path === undefined &&
        input.url === undefined
      ) {
        await context.clearCookies();
        return { removed: all.length };
      }
      return { removed: await remove(context, filtered(all, input)) };
    }
  }
}

/**
 * Removes exactly the cookies the filters matched (a domain matches by suffix, as in list), each by
 * its own name, domain and path: Playwright's `clearCookies` filters match a domain exactly.
 */
async function remove(context: BrowserContext, matched: readonly Cookie[]): Promise<number> {
  for (const c of matched) await context.clearCookies({ name: c.name, domain: c.domain, path: c.path });
  return matched.length;
}

/** Playwright's `addCookies`: every cookie is checked (and the URL policy asked) before any is set. */
export function addCookies(ctx: OperationContext, inputs: readonly CookieInput[]): Promise<number> {
  const add = async (): Promise<number> => {
    const checked = inputs.map((input) => toNewCookie(ctx, input));
    await ctx.session.browserContext.addCookies(checked);
    return checked.length;
  };
  return withDeadline(add(), ctx.deadline, ctx.signal);
}

function requireName(input: CookieInput): string {
  if (input.name === undefined) throw invalidArgument('name', `is required with action ${input.action}`);
  return input.name;
}

/** A cookie matches a name exactly, a domain by suffix (`example.com` matches `.shop.example.com`), a path exactly. */
function filtered(all: Cookie[], input: Pick<CookieInput, 'name' | 'domain' | 'path' | 'url'>): Cookie[] {
  const domain = input.domain?.toLowerCase().replace(/^\./, '');
  const host = input.url === undefined ? undefined : hostOf(input.url, 'url');
  return all.filter((c) => {
    const cookieHost = c.domain.toLowerCase().replace(/^\./, '');
    if (input.name !== undefined && c.name !== input.name) return false;
    if (domain !== undefined && cookieHost !== domain && !cookieHost.endsWith(`.${domain}`)) return false;
    if (host !== undefined && host !== cookieHost && !host.endsWith(`.${cookieHost}`)) return false;
    return input.path === undefined || c.path === input.path;
  });
}

function credentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

function toView(c: Cookie, redact: boolean): CookieView {
  const view: CookieView = {
    name: c.name,
    value: redact ? REDACTED_VALUE : c.value,
    domain: c.domain,
    path: c.path,
    expires: c.expires,
    httpOnly: c.httpOnly,
    secure: c.secure,
    sameSite: c.sameSite,
  };
  if (redact) view.redacted = true;
  return view;
}

type NewCookie = Parameters<OperationContext['session']['browserContext']['addCookies']>[0][number];

function toNewCookie(ctx: OperationContext, input: CookieInput): NewCookie {
  const name = requireName(input);
  if (!COOKIE_NAME.test(name)) throw invalidArgument('name', 'is not a valid cookie name (RFC 6265 token)');
  const value = input.value;
  if (value === undefined) throw invalidArgument('value', 'is required with action set');
  if (value.length > MAX_VALUE_CHARS || !COOKIE_VALUE.test(value))
    throw invalidArgument(
      'value',
      `must be at most ${MAX_VALUE_CHARS} cookie characters (no ; , " \\ space or controls)`,
    );
  if ((input.url === undefined) === (input.domain === undefined))
    throw invalidArgument('url', 'give exactly one of url or domain');
  if (input.sameSite === 'None' && input.secure === false)
    throw invalidArgument('sameSite', 'None needs secure (browsers drop it otherwise)');
  const host = input.url !== undefined ? hostOf(input.url, 'url') : domainHost(input.domain ?? '');
  assertHostAllowed(ctx, host, input.url !== undefined ? 'url' : 'domain');
  const common = {
    name,
    value,
    ...(input.expires !== undefined ? { expires: input.expires } : {}),
    ...(input.httpOnly !== undefined ? { httpOnly: input.httpOnly } : {}),
    ...(input.secure !== undefined ? { secure: input.secure } : {}),
    ...(input.sameSite !== undefined ? { sameSite: input.sameSite } : {}),
  };
  if (input.url !== undefined) return { ...common, url: input.url };
  return { ...common, domain: input.domain ?? '', path: input.path ?? '/' };
}

function hostOf(url: string, field: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidArgument(field, 'is not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalidArgument(field, 'must be an http(s) URL');
  return parsed.hostname.toLowerCase();
}

function domainHost(domain: string): string {
  if (!DOMAIN.test(domain) || domain.length > 253) throw invalidArgument('domain', 'is not a host name');
  return domain.toLowerCase().replace(/^\./, '');
}

/**
 * Refuses a host the URL policy blocks by name or literal address (no DNS lookup: a cookie is not a
 * request), on either scheme: a cookie set for it would go out with the first request that slipped by.
 */
function assertHostAllowed(ctx: OperationContext, host: string, field: string): void {
  const policy = ctx.session.urlGuard?.policy;
  if (!policy?.active) return;
  for (const [port, scheme] of [
    [443, 'https'],
    [80, 'http'],
  ] as const) {
    const verdict = policy.checkName(host.replace(/^\[|\]$/g, ''), port, scheme);
    if (!verdict.allowed)
      throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, `${field}: the URL policy blocks this host`, {
        details: { field, reason: verdict.reason },
        recoveryHint: 'Set cookies only for hosts the session may load.',
      });
  }
}
