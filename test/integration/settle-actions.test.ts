import { describe, expect, test } from './support/fixtures.js';
import { type FixtureServer } from '../fixtures/server.mjs';
import { McpHarness, textOf } from '../helpers/harness.js';

/**
 * Action settling through the MCP client: an action returns after what it set in motion. /settle/delayed
 * has buttons whose handlers navigate 100 ms later, relabel themselves 50 ms later, after a 200 ms
 * fetch, or from an animation frame; and one that does nothing. Before the fix the click results had
 * no URL and their snapshots showed the old labels.
 */

/** Compact: only what happened is present; the whole report is absent when the action caused nothing. */
interface Settled {
  navigation?: true;
  requests?: number;
  mutations?: number;
  waitedMs: number;
  complete?: false;
}
interface Acted {
  completed: true;
  url?: string;
  settled?: Settled;
  snapshot?: string;
}

async function onDelayedPage(
  h: McpHarness,
  site: FixtureServer,
): Promise<{ sessionId: string; pageId: string }> {
  const s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/settle/delayed') });
  return s;
}

const button = (name: string): Record<string, unknown> => ({ locator: { role: 'button', name } });

describe('an action returns after its effects', () => {
  test('a handler that navigates 100 ms later: the click returns the new URL, on the new page', async ({
    site,
    harness: h,
  }) => {
    const s = await onDelayedPage(h, site);
    const acted = await h.ok<Acted>('browser_click', { ...s, ...button('Go later') });
    expect(acted.url).toBe(site.url('/settle/next'));
    expect(acted.settled?.navigation).toBe(true);
    // Nothing of the old page is left for the agent to act on.
    expect(await h.ok('browser_get_title', s)).toMatchObject({ title: 'Next' });
    const text = await h.ok<{ text: string }>('browser_visible_text', s);
    expect(text.text).toContain('The next page');
  });

  test('a change made at once is counted even when the page is busy right after it', async ({
    site,
    harness: h,
  }) => {
    const s = await onDelayedPage(h, site);
    const acted = await h.ok<Acted>('browser_click', { ...s, ...button('Change now, then busy') });
    // The page ran the action's first read 400 ms late: the mutation is counted from the page's
    // clock at the action's start, not from a window measured on the server's side.
    expect(acted.settled?.mutations).toBeGreaterThan(0);
  });

  test('a handler that changes the text 50 ms later: includeSnapshot shows the new text', async ({
    site,
    harness: h,
  }) => {
    const s = await onDelayedPage(h, site);
    const acted = await h.ok<Acted>('browser_click', {
      ...s,
      ...button('Change later'),
      includeSnapshot: true,
    });
    expect(acted.snapshot).toContain('Changed');
    expect(acted.snapshot).not.toContain('Change later');
    expect(acted.settled?.navigation).toBeUndefined();
    expect(acted.settled?.mutations).toBeGreaterThan(0);
    expect(acted.settled?.complete).toBeUndefined();
  });

  test('a handler that fetches, then renders: the request is awaited and its rendering shown', async ({
    site,
    harness: h,
  }) => {
    const s = await onDelayedPage(h, site);
    const acted = await h.ok<Acted>('browser_click', {
      ...s,
      ...button('Load later'),
      includeSnapshot: true,
    });
    expect(acted.settled?.requests).toBe(1);
    expect(acted.snapshot).toContain('Loaded 3');
  });

  test('an animation frame that schedules a timer is followed too', async ({ site, harness: h }) => {
    const s = await onDelayedPage(h, site);
    const acted = await h.ok<Acted>('browser_click', {
      ...s,
      ...button('Paint later'),
      includeSnapshot: true,
    });
    expect(acted.snapshot).toContain('Painted');
  });

  test('a click that causes nothing carries no settled report (nothing was awaited)', async ({
    site,
    harness: h,
  }) => {
    const s = await onDelayedPage(h, site);
    const acted = await h.ok<Acted>('browser_click', { ...s, ...button('Nothing') });
    expect(acted).toEqual({ operationId: expect.any(String), completed: true });
  });

  test('a fill reports nothing, a navigating click only the facts that are true', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/shop/') });
    const filled = await h.ok<Acted>('browser_fill', {
      ...s,
      locator: { role: 'searchbox', name: 'Search' },
      value: 'water',
    });
    expect(filled.settled).toBeUndefined();
    // The model reads only that it is done; the operationId is in structuredContent for programs.
    const again = await h.call('browser_fill', {
      ...s,
      locator: { role: 'searchbox', name: 'Search' },
      value: 'w',
    });
    expect(textOf(again)).toBe('{"completed":true}');
    expect(again.structuredContent).toEqual({ operationId: expect.stringMatching(/^op_/), completed: true });
    const went = await h.ok<Acted>('browser_click', { ...s, ...button('Search') });
    expect(went.url).toBe(site.url('/shop/search?q=w'));
    // No false flags or zero counts: navigation, the awaited document request, and the time waited.
    expect(went.settled).toEqual({
      navigation: true,
      requests: expect.any(Number),
      waitedMs: expect.any(Number),
    });
    expect(went.settled?.requests).toBeGreaterThan(0);
  });

  test('an endless animation loop or poll the click started does not hold it to its bound', async ({
    site,
    harness: h,
  }) => {
    const s = await onDelayedPage(h, site);
    const acted = await h.ok<Acted>('browser_click', { ...s, ...button('Animate') });
    expect(acted.settled?.navigation).toBeUndefined();
    // Loops stop counting after a few rounds; only a wait cut by the bound would say complete: false.
    expect(acted.settled?.complete).toBeUndefined();
    expect(acted.settled?.mutations).toBeGreaterThan(0);
  });

  test('a request it started that never finishes: bounded, reported incomplete, never an error', async ({
    site,
    harness: h,
  }) => {
    const s = await onDelayedPage(h, site);
    const acted = await h.ok<Acted>('browser_click', { ...s, ...button('Hold'), timeoutMs: 10_000 });
    expect(acted.settled).toMatchObject({ requests: 1, complete: false });
    expect(acted.settled?.navigation).toBeUndefined();
    // The session is not stuck behind it.
    expect(await h.ok('browser_get_title', s)).toMatchObject({ title: 'Delayed effects' });
  });

  test('bad input still fails fast with a code, and the page keeps working', async ({ site, harness: h }) => {
    const s = await onDelayedPage(h, site);
    const error = await h.err('browser_click', { ...s, ref: '@e999' });
    expect(['STALE_ELEMENT_REFERENCE', 'ELEMENT_NOT_FOUND', 'INVALID_ARGUMENT']).toContain(error.code);
    const acted = await h.ok<Acted>('browser_click', { ...s, ...button('Go later') });
    expect(acted.url).toBe(site.url('/settle/next'));
  });
});

describe('browser_action_and_wait follows the same rule', () => {
  test('a navigation to a page whose load never comes is done once parsed; loadState load stays strict', async ({
    site,
    harness: h,
  }) => {
    const s = await onDelayedPage(h, site);
    const link = { locator: { role: 'link', name: 'Hanging page' } };
    const waited = await h.ok<{ event: { type: string; url: string } }>('browser_action_and_wait', {
      ...s,
      target: link,
      waitFor: { kind: 'navigation' },
      timeoutMs: 8000,
    });
    expect(waited.event).toMatchObject({ type: 'navigation', url: site.url('/settle/hanging?n=9') });
    const t = await onDelayedPage(h, site);
    const error = await h.err('browser_action_and_wait', {
      ...t,
      target: link,
      waitFor: { kind: 'navigation', loadState: 'load' },
      timeoutMs: 1500,
    });
    expect(error.code).toBe('OPERATION_TIMEOUT');
  });
});
