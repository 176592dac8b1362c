import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

interface Events {
  events: Array<{ requestId?: string; method?: string; url?: string; status?: number }>;
  request?: Record<string, unknown> & {
    requestHeaders: Record<string, string>;
    responseHeaders: Record<string, string>;
  };
}

describe('browser_observe request details', () => {
  test('details the form POST, with the typed password and the session cookie redacted', async () => {
    const typed = 'Typed-Secret-9f27';
    await h.ok('browser_navigate', { ...s, url: site.url('/shop/login') });
    await h.ok('browser_fill', { ...s, locator: { label: 'Username' }, value: 'buyer' });
    await h.ok('browser_fill', { ...s, locator: { label: 'Password' }, value: typed });
    await h.ok('browser_click', { ...s, locator: { role: 'button', name: 'Sign in' } });
    const list = await h.ok<Events>('browser_observe', { ...s, source: 'network' });
    const post = list.events.find((e) => e.method === 'POST');
    expect(post?.status).toBe(401);
    const detail = await h.ok<Events>('browser_observe', {
      ...s,
      source: 'network',
      requestId: post?.requestId,
    });
    const request = detail.request;
    expect(request).toMatchObject({ method: 'POST', status: 401, url: site.url('/shop/login') });
    expect(request?.requestBody).toContain('username=buyer');
    expect(request?.requestBody).toContain('password=REDACTED');
    expect(request?.responseBody).toContain('Invalid username or password');
    expect(request?.requestHeaders['content-type']).toContain('x-www-form-urlencoded');
    expect(JSON.stringify(detail)).not.toContain(typed);
  });

  test('redacts Cookie and Set-Cookie after a successful login', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/shop/login') });
    await h.ok('browser_fill', { ...s, locator: { label: 'Username' }, value: 'buyer' });
    await h.ok('browser_fill', { ...s, locator: { label: 'Password' }, value: 'buyer-pass' });
    await h.ok('browser_click', { ...s, locator: { role: 'button', name: 'Sign in' } });
    const list = await h.ok<Events>('browser_observe', { ...s, source: 'network' });
    const posts = list.events.filter((e) => e.method === 'POST');
    const login = posts[posts.length - 1];
    const detail = await h.ok<Events>('browser_observe', {
      ...s,
      source: 'network',
      requestId: login?.requestId,
    });
    expect(detail.request?.responseHeaders['set-cookie']).toBe('REDACTED');
    expect(JSON.stringify(detail)).not.toContain('buyer-pass');
    const after = list.events.slice(list.events.indexOf(login ?? {}) + 1).find((e) => e.method === 'GET');
    expect(after).toBeDefined();
    const next = await h.ok<Events>('browser_observe', {
      ...s,
      source: 'network',
      requestId: after?.requestId,
    });
    expect(next.request?.requestHeaders.cookie).toBe('REDACTED');
  });

  test('refuses an unknown requestId by field', async () => {
    expect(await h.err('browser_observe', { ...s, source: 'network', requestId: 'r999999' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'requestId' },
    });
  });
});
