import { describe, expect, test } from './support/fixtures.js';
import { textOf } from '../helpers/harness.js';

/**
 * A one-shot client (the Inspector CLI, a script) starts a new server per call and so never
 * holds a session id. browser_navigate without sessionId and pageId opens a session for itself and
 * reports it in the result; the session then works like one from browser_session_create.
 */

interface Navigated {
  url: string;
  title: string;
  session?: { sessionId: string; pageId: string; created: boolean };
  snapshot?: string;
}

describe('browser_navigate without a session', () => {
  test('opens a session, says so, and returns the page in one call', async ({ site, harness: h }) => {
    const result = await h.call('browser_navigate', { url: site.url('/shop/'), includeSnapshot: true });
    expect(result.isError).toBeFalsy();
    const nav = result.structuredContent as unknown as Navigated;
    expect(nav).toMatchObject({ url: site.url('/shop/'), title: 'Mesh Shop' });
    expect(nav.session).toMatchObject({ created: true, sessionId: expect.stringMatching(/^s_/) });
    expect(nav.snapshot).toMatch(/\[searchbox @e\d+\] Search/);
    // The text the model reads names the new session too.
    expect(JSON.parse(textOf(result).split('\n')[0] ?? '')).toHaveProperty('session.sessionId');
    const { sessionId, pageId } = nav.session ?? { sessionId: '', pageId: '' };
    const sessions = await h.ok<{ sessions: Array<{ sessionId: string }> }>('browser_session_list');
    expect(sessions.sessions.map((s) => s.sessionId)).toContain(sessionId);
    // It is an ordinary session: the next call uses its ids.
    expect(
      await h.ok<Navigated>('browser_navigate', { sessionId, pageId, url: site.url('/shop/cart') }),
    ).not.toHaveProperty('session');
    await h.ok('browser_session_close', { sessionId });
  });

  test('refuses one id without the other with INVALID_ARGUMENT and opens nothing', async ({
    site,
    harness: h,
  }) => {
    const before = await h.ok<{ sessions: unknown[] }>('browser_session_list');
    expect(await h.err('browser_navigate', { sessionId: 's_aaaaaaaaaa', url: site.url('/') })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'pageId' },
    });
    expect(await h.err('browser_navigate', { pageId: 'p1', url: site.url('/') })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'sessionId' },
    });
    const after = await h.ok<{ sessions: unknown[] }>('browser_session_list');
    expect(after.sessions.length).toBe(before.sessions.length);
  });

  test('closes the session it opened when the navigation fails', async ({ site, harness: h }) => {
    const before = await h.ok<{ sessions: Array<{ state: string }> }>('browser_session_list');
    const live = (list: Array<{ state: string }>) => list.filter((s) => s.state !== 'closed').length;
    const failed = await h.err('browser_navigate', { url: 'ftp://127.0.0.1/file' });
    expect(failed.code).toBe('INVALID_ARGUMENT');
    const after = await h.ok<{ sessions: Array<{ state: string }> }>('browser_session_list');
    expect(live(after.sessions)).toBe(live(before.sessions));
    // The server keeps working.
    const nav = await h.ok<Navigated>('browser_navigate', { url: site.url('/shop/') });
    expect(nav.title).toBe('Mesh Shop');
  });
});
