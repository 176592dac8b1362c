import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

const SECRET = 'sekrit-value-0042';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'state'],
  // A loopback alias stands in for a host the policy blocks (no traffic leaves loopback).
  blockedAddresses: ['127.0.0.2/32'],
  secrets: { API_KEY: SECRET },
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

interface CookieView {
  name: string;
  value: string;
  domain: string;
  httpOnly: boolean;
  redacted?: true;
}
const cookies = (args: Record<string, unknown>) =>
  h.ok<{ cookies?: CookieView[]; total?: number; removed?: number }>('browser_cookies', {
    sessionId: s.sessionId,
    ...args,
  });

/** The cookie names the fixture server received on a request from the page. */
async function namesSentByPage(): Promise<string[]> {
  await h.ok('browser_navigate', { ...s, url: site.url('/echo-cookies') });
  const text = await h.ok<{ text: string }>('browser_visible_text', { ...s });
  return (JSON.parse(text.text) as { names: string[] }).names;
}

describe('browser_cookies', () => {
  test('sets, lists (credentials redacted), gets by name, deletes and clears', async () => {
    const url = site.url('/');
    await cookies({ action: 'set', name: 'theme', value: 'dark', url });
    await cookies({ action: 'set', name: 'session_id', value: 'abc123xyz', url, httpOnly: true });
    await cookies({ action: 'set', name: 'api', value: SECRET, domain: '127.0.0.1', path: '/' });
    expect((await namesSentByPage()).sort()).toEqual(['api', 'session_id', 'theme']);

    const listed = await cookies({ action: 'list', domain: '127.0.0.1' });
    expect(listed.total).toBe(3);
    const byName = new Map(listed.cookies?.map((c) => [c.name, c]));
    expect(byName.get('theme')?.value).toBe('dark');
    expect(byName.get('session_id')).toMatchObject({ value: '[redacted]', redacted: true, httpOnly: true });
    // A --secrets value never comes back, not even in a listing of an innocently named cookie.
    const listing = await h.call('browser_cookies', { sessionId: s.sessionId });
    expect(JSON.stringify(listing)).not.toContain(SECRET);
    expect(JSON.stringify(listing)).not.toContain('abc123xyz');

    const got = await cookies({ action: 'get', name: 'session_id' });
    expect(got.cookies?.[0]?.value).toBe('abc123xyz');
    expect(
      JSON.stringify(await h.call('browser_cookies', { sessionId: s.sessionId, action: 'get', name: 'api' })),
    ).not.toContain(SECRET);

    expect((await cookies({ action: 'delete', name: 'theme' })).removed).toBe(1);
    expect((await namesSentByPage()).sort()).toEqual(['api', 'session_id']);
    // clear with a filter removes what list shows for it (a domain matches by suffix), nothing else.
    await cookies({ action: 'set', name: 'elsewhere', value: 'x', domain: 'shop.localhost', path: '/' });
    await cookies({ action: 'set', name: 'sub', value: 'y', domain: '.a.localhost', path: '/' });
    expect((await cookies({ action: 'clear', domain: 'localhost' })).removed).toBe(2);
    expect((await cookies({ action: 'list' })).total).toBe(2);
    expect((await cookies({ action: 'clear' })).removed).toBe(2);
    expect(await namesSentByPage()).toEqual([]);
  });

  test('keeps a cookie in its own session: another session neither lists nor sends it', async () => {
    const other = await h.session();
    await cookies({ action: 'set', name: 'mine', value: 'only-here', url: site.url('/') });
    const theirs = await h.ok<{ cookies?: CookieView[]; total?: number }>('browser_cookies', {
      sessionId: other.sessionId,
      action: 'list',
    });
    expect(theirs.total ?? 0).toBe(0);
    await h.ok('browser_navigate', { ...other, url: site.url('/echo-cookies') });
    const sent = await h.ok<{ text: string }>('browser_visible_text', other);
    expect((JSON.parse(sent.text) as { names: string[] }).names).toEqual([]);
    // Clearing the other session leaves this one's cookie alone.
    await h.ok('browser_cookies', { sessionId: other.sessionId, action: 'clear' });
    expect(await namesSentByPage()).toContain('mine');
    await cookies({ action: 'clear' });
    await h.ok('browser_session_close', { sessionId: other.sessionId });
  });

  test('refuses a cookie for a blocked host, bad names and values, with the session still working', async () => {
    const blocked = await h.err('browser_cookies', {
      sessionId: s.sessionId,
      action: 'set',
      name: 'a',
      value: 'b',
      url: 'http://127.0.0.2/',
    });
    expect(blocked).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'url', reason: 'blocked_address' },
    });
    const byDomain = await h.err('browser_cookies', {
      sessionId: s.sessionId,
      action: 'set',
      name: 'a',
      value: 'b',
      domain: '127.0.0.2',
    });
    expect(byDomain.code).toBe('INVALID_ARGUMENT');
    for (const bad of [
      { name: 'semi;colon', value: 'x', url: site.url('/') },
      { name: 'ok', value: 'has space', url: site.url('/') },
      { name: 'ok', value: 'x' },
      { name: 'ok', value: 'x', url: 'ftp://127.0.0.1/' },
      { name: 'ok', value: 'x', url: site.url('/'), domain: '127.0.0.1' },
    ]) {
      const error = await h.err('browser_cookies', { sessionId: s.sessionId, action: 'set', ...bad });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(JSON.stringify(error)).not.toContain('has space');
    }
    expect((await h.err('browser_cookies', { sessionId: s.sessionId, action: 'get' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await cookies({})).total).toBe(0);
  });
});

describe('browser_storage', () => {
  const store = (args: Record<string, unknown>) =>
    h.ok<{
      origin: string;
      items?: Array<{ key: string; value: string; redacted?: true }>;
      value?: string | null;
      removed?: number;
    }>('browser_storage', { ...s, ...args });

  test('reads and writes local and session storage of the current origin', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    await h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', ({ page }) =>
      page.page.evaluate(() => {
        localStorage.setItem('fromPage', '1');
        localStorage.setItem('authToken', 'tok-987654');
      }),
    );
    await store({ action: 'set', key: 'cart', value: '{"items":2}' });
    await store({ area: 'session', action: 'set', key: 'step', value: 'three' });
    const listed = await store({});
    expect(listed.origin).toBe(site.origin);
    const items = new Map(listed.items?.map((i) => [i.key, i]));
    expect(items.get('fromPage')?.value).toBe('1');
    expect(items.get('cart')?.value).toBe('{"items":2}');
    expect(items.get('authToken')).toMatchObject({ value: '[redacted]', redacted: true });
    expect((await store({ action: 'get', key: 'authToken' })).value).toBe('tok-987654');
    expect((await store({ action: 'get', key: 'missing' })).value).toBeNull();
    const seen = await h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', ({ page }) =>
      page.page.evaluate(() => [localStorage.getItem('cart'), sessionStorage.getItem('step')]),
    );
    expect(seen).toEqual(['{"items":2}', 'three']);
    expect((await store({ area: 'session', action: 'list' })).items).toEqual([
      { key: 'step', value: 'three' },
    ]);
    expect((await store({ action: 'delete', key: 'cart' })).removed).toBe(1);
    expect((await store({ action: 'clear' })).removed).toBe(2);
    expect((await store({})).items).toEqual([]);
  });

  test('refuses a page without an origin and a missing key', async () => {
    const fresh = await h.ok<{ page: { pageId: string } }>('browser_page_create', { sessionId: s.sessionId });
    const error = await h.err('browser_storage', { sessionId: s.sessionId, pageId: fresh.page.pageId });
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'pageId' } });
    expect((await h.err('browser_storage', { ...s, action: 'get' })).code).toBe('INVALID_ARGUMENT');
    expect(textOf(await h.call('browser_storage', { ...s }))).toContain('origin');
  });
});
