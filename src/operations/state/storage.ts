import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import { REDACTED_VALUE } from './cookies.js';

/**
 * localStorage / sessionStorage of the page's current origin, one key at a time. Read and written
 * through the DevTools DOMStorage domain, not page script: a page that replaces `Storage.prototype`
 * cannot lie to it or see it. Values of credential-like keys are redacted in listings.
 */

export type StorageAction = 'list' | 'get' | 'set' | 'delete' | 'clear';

export interface StorageInput {
  area: 'local' | 'session';
  action: StorageAction;
  key?: string | undefined;
  value?: string | undefined;
}

export interface StorageResult {
  origin: string;
  items?: Array<{ key: string; value: string; redacted?: true }>;
  total?: number;
  truncated?: boolean;
  /** get: null when the key is absent. */
  value?: string | null;
  set?: true;
  removed?: number;
}

export const MAX_LISTED_ITEMS = 200;
/** Characters of one value in a listing; get returns up to MAX_VALUE_CHARS. */
const LISTED_VALUE_CHARS = 1000;
export const MAX_STORAGE_VALUE_CHARS = 1_000_000;
const CREDENTIAL_KEY = /(token|secret|passw|pwd|auth|api[-_]?key|session|jwt|credential|csrf|xsrf|otp)/i;

export function storage(ctx: PageOperationContext, input: StorageInput): Promise<StorageResult> {
  return withDeadline(runStorage(ctx, input), ctx.deadline, ctx.signal);
}

async function runStorage(ctx: PageOperationContext, input: StorageInput): Promise<StorageResult> {
  const origin = currentOrigin(ctx.page.page.url());
  const cdp = await ctx.page.cdp();
  const storageId = { securityOrigin: origin, isLocalStorage: input.area === 'local' };
  const items = async (): Promise<Array<[string, string]>> =>
    (await cdp.send('DOMStorage.getDOMStorageItems', { storageId })).entries.map(
      ([key = '', value = '']) => [key, value] as [string, string],
    );
  switch (input.action) {
    case 'list': {
      const all = await items();
      const listed = all.slice(0, MAX_LISTED_ITEMS).map(([key, value]) => listedItem(key, value));
      return { origin, items: listed, total: all.length, truncated: all.length > listed.length };
    }
    case 'get': {
      const key = requireKey(input);
      const found = (await items()).find(([k]) => k === key);
      return { origin, value: found ? found[1] : null };
    }
    case 'set': {
      const key = requireKey(input);
      if (input.value === undefined) throw invalidArgument('value', 'is required with action set');
      await cdp.send('DOMStorage.setDOMStorageItem', { storageId, key, value: input.value });
      return { origin, set: true };
    }
    case 'delete': {
      const key = requireKey(input);
      const had = (await items()).some(([k]) => k === key);
      await cdp.send('DOMStorage.removeDOMStorageItem', { storageId, key });
      return { origin, removed: had ? 1 : 0 };
    }
    case 'clear': {
      const count = (await items()).length;
      await cdp.send('DOMStorage.clear', { storageId });
      return { origin, removed: count };
    }
  }
}

function listedItem(key: string, value: string): { key: string; value: string; redacted?: true } {
  if (CREDENTIAL_KEY.test(key)) return { key, value: REDACTED_VALUE, redacted: true };
  const chars = Array.from(value);
  return {
    key,
    value: chars.length > LISTED_VALUE_CHARS ? `${chars.slice(0, LISTED_VALUE_CHARS).join('')}…` : value,
  };
}

function requireKey(input: StorageInput): string {
  if (input.key === undefined) throw invalidArgument('key', `is required with action ${input.action}`);
  return input.key;
}

/** Storage belongs to an origin: a page on about:blank, data: or a file has none to read. */
function currentOrigin(url: string): string {
  let origin = 'null';
  try {
    origin = new URL(url).origin;
  } catch {
    origin = 'null';
  }
  if (origin === 'null' || !/^https?:/.test(origin))
    throw new BrowserMeshError(
      ErrorCodes.INVALID_ARGUMENT,
      'pageId: the page has no http(s) origin yet; navigate first',
      {
        details: { field: 'pageId' },
      },
    );
  return origin;
}
