import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { type FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, () => ({ maxSessions: 4, maxPages: 3 }));

async function cookieNames(
  h: McpHarness,
  site: FixtureServer,
  sessionId: string,
  pageId: string,
): Promise<string[]> {
  await h.ok('browser_navigate', { sessionId, pageId, url: site.url('/echo-cookies') });
  const { text } = await h.ok<{ text: string }>('browser_visible_text', { sessionId, pageId });
  return (JSON.parse(text) as { names: string[] }).names;
}

describe('sessions', () => {
  test('browser_runtime_info works before any session and does not launch Chromium', async () => {
    const fresh = await McpHarness.start();
    try {
      const info = await fresh.ok<{
        browser: { state: string; browserVersion: string | null };
        sessions: { live: number };
      }>('browser_runtime_info');
      expect(info.browser.state).toBe('idle');
      expect(info.browser.browserVersion).toBeNull();
      expect(info.sessions.live).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  test('creates a session with a deterministic default page, labels and settings', async ({ harness: h }) => {
    const created = await h.ok<{
      session: Record<string, unknown>;
      initialPage: Record<string, unknown>;
      operationId: string;
    }>('browser_session_create', {
      name: 'buyer',
      metadata: { role: 'buyer' },
      contextSettings: { viewport: { width: 800, height: 600 }, locale: 'fr-FR' },
    });
    expect(created.operationId).toMatch(/^op_/);
    expect(created.session).toMatchObject({
      name: 'buyer',
      metadata: { role: 'buyer' },
      state: 'ready',
      pageCount: 1,
    });
    expect(created.session.contextSettings).toMatchObject({
      viewport: { width: 800, height: 600 },
      locale: 'fr-FR',
    });
    expect(created.initialPage).toMatchObject({ isDefault: true, url: 'about:blank' });
    const sessionId = (created.session as { sessionId: string }).sessionId;
    const pages = await h.ok<{ pages: Array<{ pageId: string; isDefault: boolean }> }>('browser_page_list', {
      sessionId,
    });
    expect(pages.pages).toEqual([
      expect.objectContaining({ pageId: created.initialPage.pageId, isDefault: true }),
    ]);
    await h.ok('browser_session_close', { sessionId });
  });

  test('keeps cookies isolated between sessions and refuses a pageId of another session', async ({
    site,
    harness: h,
  }) => {
    const a = await h.session({ name: 'a' });
    const b = await h.session({ name: 'b' });
    await h.ok('browser_navigate', { ...a, url: site.url('/cookie-set?name=only_a&value=1') });
    expect(await cookieNames(h, site, a.sessionId, a.pageId)).toContain('only_a');
    expect(await cookieNames(h, site, b.sessionId, b.pageId)).not.toContain('only_a');
    const crossed = await h.err('browser_get_url', { sessionId: b.sessionId, pageId: a.pageId });
    expect(crossed.code).toBe('PAGE_NOT_FOUND');
    await h.ok('browser_session_close', { sessionId: a.sessionId });
    await h.ok('browser_session_close', { sessionId: b.sessionId });
  });

  test('closes idempotently and refuses work on a closed session', async ({ harness: h }) => {
    const s = await h.session();
    const first = await h.ok<{ state: string; alreadyClosed: boolean }>('browser_session_close', {
      sessionId: s.sessionId,
    });
    expect(first).toMatchObject({ state: 'closed', alreadyClosed: false });
    const second = await h.ok<{ state: string; alreadyClosed: boolean }>('browser_session_close', {
      sessionId: s.sessionId,
    });
    expect(second).toMatchObject({ state: 'closed', alreadyClosed: true });
    expect((await h.err('browser_get_url', s)).code).toBe('SESSION_CLOSED');
    expect(
      (await h.ok<{ session: { state: string } }>('browser_session_get', { sessionId: s.sessionId })).session
        .state,
    ).toBe('closed');
  });

  test('answers unknown ids with SESSION_NOT_FOUND / PAGE_NOT_FOUND', async ({ harness: h }) => {
    expect((await h.err('browser_session_close', { sessionId: 's_unknown' })).code).toBe('SESSION_NOT_FOUND');
    expect((await h.err('browser_get_url', { sessionId: 's_unknown', pageId: 'p_x' })).code).toBe(
      'SESSION_NOT_FOUND',
    );
    const s = await h.session();
    expect((await h.err('browser_get_url', { sessionId: s.sessionId, pageId: 'p_unknown' })).code).toBe(
      'PAGE_NOT_FOUND',
    );
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('enforces the session and page limits with LIMIT_EXCEEDED, and keeps working', async ({
    site,
    harness: h,
  }) => {
    const open = [];
    for (let i = 0; i < 4; i++) open.push(await h.session());
    const over = await h.err('browser_session_create');
    expect(over.code).toBe('LIMIT_EXCEEDED');
    const first = open[0]!;
    await h.ok('browser_page_create', { sessionId: first.sessionId });
    await h.ok('browser_page_create', { sessionId: first.sessionId });
    expect((await h.err('browser_page_create', { sessionId: first.sessionId })).code).toBe('LIMIT_EXCEEDED');
    await h.ok('browser_navigate', { ...first, url: site.url('/quiet') });
    for (const s of open) await h.ok('browser_session_close', { sessionId: s.sessionId });
    const again = await h.session();
    await h.ok('browser_session_close', { sessionId: again.sessionId });
  });

  test('closes one page while the session and its other pages stay usable', async ({ site, harness: h }) => {
    const s = await h.session();
    const created = await h.ok<{ page: { pageId: string; isDefault: boolean } }>('browser_page_create', {
      sessionId: s.sessionId,
    });
    expect(created.page.isDefault).toBe(false);
    await h.ok('browser_page_close', { sessionId: s.sessionId, pageId: created.page.pageId });
    expect(
      (await h.err('browser_get_url', { sessionId: s.sessionId, pageId: created.page.pageId })).code,
    ).toBe('PAGE_NOT_FOUND');
    await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('refuses bad session input naming the field, before allocating anything', async ({ harness: h }) => {
    const before = (
      await h.ok<{ sessions: Array<{ state: string }> }>('browser_session_list')
    ).sessions.filter((x) => x.state === 'ready').length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'bad\u0007name' }, 'name'],
      [{ name: 'x'.repeat(129) }, 'name'],
      [{ metadata: { 'bad key': 'v' } }, 'metadata'],
      [{ metadata: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
      [
        { contextSettings: { permissions: [{ permission: 'camera', origin: 'https://a.test' }] } },
        'contextSettings.permissions.0.permission',
      ],
      [
        { contextSettings: { permissions: [{ permission: 'geolocation', origin: 'https://*.a.test' }] } },
        'contextSettings.permissions.0.origin',
      ],
      [{ contextSettings: { viewport: { width: 5, height: 600 } } }, 'contextSettings.viewport.width'],
      [{ surprise: true }, 'surprise'],
    ];
    for (const [args, field] of cases) {
      const error = await h.err('browser_session_create', args);
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(String(error.details?.field)).toContain(field);
    }
    expect((await h.err('browser_session_create', { metadata: { constructor: 'x' } })).code).toBe(
      'INVALID_ARGUMENT',
    );
    // A raw "__proto__" key is dropped by JSON-RPC parsing before it reaches the tool; whatever
    // happens, it must never become a label or pollute a prototype.
    const proto = await h.call(
      'browser_session_create',
      JSON.parse('{"metadata":{"__proto__":{"polluted":1}}}') as Record<string, unknown>,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (!proto.isError) {
      const created = proto.structuredContent as {
        session: { sessionId: string; metadata: Record<string, string> };
      };
      expect(Object.keys(created.session.metadata)).toEqual([]);
      await h.ok('browser_session_close', { sessionId: created.session.sessionId });
    }
    const live = (await h.ok<{ sessions: Array<{ state: string }> }>('browser_session_list')).sessions.filter(
      (x) => x.state === 'ready',
    );
    expect(live.length).toBe(before);
  });

  test('grants geolocation to exactly one origin', async ({ site, harness: h }) => {
    const s = await h.session({
      contextSettings: {
        geolocation: { latitude: 41.3111, longitude: 69.2797, accuracy: 25 },
        permissions: [{ permission: 'geolocation', origin: site.origin }],
      },
    });
    site.route('/geo', (_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<title>geo</title><p id=out>waiting</p><script>
        navigator.geolocation.getCurrentPosition(p => { document.title = 'lat ' + p.coords.latitude.toFixed(2); }, e => { document.title = 'denied'; });
      </script>`);
    });
    await h.ok('browser_navigate', { ...s, url: site.url('/geo') });
    let title = '';
    for (let i = 0; i < 100 && !title.startsWith('lat') && title !== 'denied'; i++) {
      title = (await h.ok<{ title: string }>('browser_get_title', s)).title;
    }
    expect(title).toBe('lat 41.31');
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });
});
