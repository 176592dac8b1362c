import { describe, expect, test } from './support/fixtures.js';

/** What an agent needs to pick its next call: page titles in the list. */

describe('browser_page_list', () => {
  test("lists each page's title", async ({ site, harness: h, session: s }) => {
    await h.ok('browser_navigate', { ...s, url: site.url('/title?t=First%20tab') });
    const second = await h.ok<{ page: { pageId: string } }>('browser_page_create', {
      sessionId: s.sessionId,
    });
    await h.ok('browser_navigate', {
      sessionId: s.sessionId,
      pageId: second.page.pageId,
      url: site.url('/title?t=Second%20tab'),
    });
    const listed = await h.ok<{ pages: Array<{ pageId: string; title: string }> }>('browser_page_list', {
      sessionId: s.sessionId,
    });
    const titles = Object.fromEntries(listed.pages.map((p) => [p.pageId, p.title]));
    expect(titles).toEqual({ [s.pageId]: 'First tab', [second.page.pageId]: 'Second tab' });
    expect((await h.err('browser_page_list', { sessionId: 'sess_nope' })).code).toBe('SESSION_NOT_FOUND');
  });
});
