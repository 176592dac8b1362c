import { describe, expect, test } from './support/fixtures.js';
import { textOf } from '../helpers/harness.js';
import { refIn } from './support/agent.js';

/**
 * A navigation can return the new page's interactive view in the same call, so an agent
 * that navigates and then reads the page's targets spends one call, not two. The refs it returns are
 * the page's own refs (usable at once, stale after the next navigation).
 */

interface Navigated {
  url: string;
  title: string;
  snapshot?: string;
}

describe('browser_navigate includeSnapshot', () => {
  test('returns the interactive view of the new page, whose refs act at once', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    const result = await h.call('browser_navigate', { ...s, url: site.url('/shop/'), includeSnapshot: true });
    const nav = result.structuredContent as unknown as Navigated;
    expect(nav).toMatchObject({ url: site.url('/shop/'), title: 'Mesh Shop' });
    const search = refIn(nav.snapshot ?? '', 'searchbox', 'Search');
    // The text block is the JSON line, then the snapshot as plain lines (never JSON-escaped).
    expect(textOf(result).split('\n').slice(1).join('\n')).toBe(nav.snapshot);
    expect(JSON.parse(textOf(result).split('\n')[0] ?? '')).not.toHaveProperty('snapshot');
    await h.ok('browser_fill', { ...s, ref: search, value: 'water' });
    const went = await h.ok<Navigated>('browser_navigate', { ...s, url: site.url('/shop/cart') });
    expect(went.snapshot).toBeUndefined();
    expect((await h.err('browser_fill', { ...s, ref: search, value: 'x' })).code).toBe(
      'STALE_ELEMENT_REFERENCE',
    );
  });

  test('refuses a non-boolean includeSnapshot with INVALID_ARGUMENT and keeps the session working', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    const bad = await h.err('browser_navigate', { ...s, url: site.url('/shop/'), includeSnapshot: 'yes' });
    expect(bad).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'includeSnapshot' } });
    expect(await h.ok('browser_navigate', { ...s, url: site.url('/shop/') })).toMatchObject({
      title: 'Mesh Shop',
    });
  });
});
