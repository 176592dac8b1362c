import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';

/** Issue 13 §6: what an agent needs to pick its next call — page titles in the list. */

let site: FixtureServer;
let h: McpHarness;

beforeAll(async () => {
  site = await startFixtureServer();
  h = await McpHarness.start();
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

describe('browser_page_list', () => {
  it("lists each page's title", async () => {
    const s = await h.session();
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
