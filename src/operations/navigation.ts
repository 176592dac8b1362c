import type { Response } from 'playwright-core';
import { invalidArgument } from '../errors.js';
import type { PageOperationContext } from '../engine/runtime.js';
import { toNavigationError } from './errors.js';

export type LoadState = 'load' | 'domcontentloaded' | 'commit';

/** What a navigation returns: enough to know where the page is, never the page itself. */
export interface NavigationResult {
  url: string;
  title: string;
  status: number | null;
}

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

/** Only absolute http(s) URLs; file:, javascript:, data:, chrome: and friends are refused. */
export function checkNavigableUrl(url: string, field = 'url'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidArgument(field, 'must be an absolute http(s) URL');
  }
  if (!ALLOWED_SCHEMES.has(parsed.protocol)) throw invalidArgument(field, `scheme ${parsed.protocol} is not allowed; use http or https`);
  return parsed.href;
}

export async function navigate(ctx: PageOperationContext, url: string, waitUntil: LoadState = 'load'): Promise<NavigationResult> {
  const href = checkNavigableUrl(url);
  const response = await ctx.page.page
    .goto(href, { waitUntil, timeout: ctx.deadline.stepTimeoutMs() })
    .catch((error: unknown) => {
      throw toNavigationError(error);
    });
  return describe(ctx, response);
}

export async function goBack(ctx: PageOperationContext, waitUntil: LoadState = 'load'): Promise<NavigationResult & { moved: boolean }> {
  const response = await ctx.page.page.goBack({ waitUntil, timeout: ctx.deadline.stepTimeoutMs() }).catch((error: unknown) => {
    throw toNavigationError(error);
  });
  return { ...(await describe(ctx, response)), moved: response !== null };
}

export async function goForward(ctx: PageOperationContext, waitUntil: LoadState = 'load'): Promise<NavigationResult & { moved: boolean }> {
  const response = await ctx.page.page.goForward({ waitUntil, timeout: ctx.deadline.stepTimeoutMs() }).catch((error: unknown) => {
    throw toNavigationError(error);
  });
  return { ...(await describe(ctx, response)), moved: response !== null };
}

export async function reload(ctx: PageOperationContext, waitUntil: LoadState = 'load'): Promise<NavigationResult> {
  const response = await ctx.page.page.reload({ waitUntil, timeout: ctx.deadline.stepTimeoutMs() }).catch((error: unknown) => {
    throw toNavigationError(error);
  });
  return describe(ctx, response);
}

async function describe(ctx: PageOperationContext, response: Response | null): Promise<NavigationResult> {
  const page = ctx.page.page;
  const title = await page.title().catch(() => '');
  return { url: page.url(), title: clip(title, 200), status: response?.status() ?? null };
}

function clip(text: string, maxChars: number): string {
  const chars = Array.from(text);
  return chars.length <= maxChars ? text : `${chars.slice(0, maxChars - 1).join('')}…`;
}
