import { describe, expect, test } from './support/fixtures.js';

/**
 * Navigation settling through the MCP client: a navigation is done when the document is usable. The fixture's
 * /settle/hanging page is parsed at once but holds an image that never answers, so `load` never fires.
 * Before the fix every call below failed with OPERATION_TIMEOUT after its whole deadline.
 */

interface Nav {
  url: string;
  title: string;
  status: number | null;
  loadState: string;
  moved?: boolean;
}

describe('navigation on a page whose load never comes', () => {
  test('navigate returns the parsed page with loadState domcontentloaded, not a timeout', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    const nav = await h.ok<Nav>('browser_navigate', {
      ...s,
      url: site.url('/settle/hanging'),
      timeoutMs: 8000,
    });
    expect(nav).toMatchObject({
      url: site.url('/settle/hanging'),
      status: 200,
      loadState: 'domcontentloaded',
    });
    expect(nav.title).toBe('Hanging 1');
    // The page is usable at once: its link is a target.
    const snap = await h.ok<{ snapshot: string }>('browser_snapshot', { ...s, interactiveOnly: true });
    expect(snap.snapshot).toContain('Next page');
  });

  test('an explicit waitUntil load keeps its strict meaning: OPERATION_TIMEOUT', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    const error = await h.err('browser_navigate', {
      ...s,
      url: site.url('/settle/hanging?n=2'),
      waitUntil: 'load',
      timeoutMs: 1500,
    });
    expect(error.code).toBe('OPERATION_TIMEOUT');
    // The session keeps working.
    expect(await h.ok<Nav>('browser_navigate', { ...s, url: site.url('/quiet') })).toMatchObject({
      loadState: 'load',
    });
  });

  test('a page whose load comes reports loadState load', async ({ site, harness: h }) => {
    const s = await h.session();
    const nav = await h.ok<Nav>('browser_navigate', { ...s, url: site.url('/quiet') });
    expect(nav.loadState).toBe('load');
    const explicit = await h.ok<Nav>('browser_navigate', {
      ...s,
      url: site.url('/title?t=Dcl'),
      waitUntil: 'domcontentloaded',
    });
    expect(explicit).toMatchObject({ title: 'Dcl', loadState: 'domcontentloaded' });
  });

  test('back, forward and reload to such a page succeed the same way', async ({ site, harness: h }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/settle/hanging?n=3'), timeoutMs: 8000 });
    await h.ok('browser_navigate', { ...s, url: site.url('/settle/next') });
    const back = await h.ok<Nav>('browser_back', { ...s, timeoutMs: 8000 });
    expect(back).toMatchObject({ title: 'Hanging 3', moved: true, loadState: 'domcontentloaded' });
    const forward = await h.ok<Nav>('browser_forward', { ...s, timeoutMs: 8000 });
    expect(forward).toMatchObject({ title: 'Next', moved: true });
    await h.ok('browser_back', { ...s, timeoutMs: 8000 });
    const reloaded = await h.ok<Nav>('browser_reload', { ...s, timeoutMs: 8000 });
    expect(reloaded).toMatchObject({ title: 'Hanging 3', loadState: 'domcontentloaded' });
  });

  test('OPERATION_TIMEOUT still means nothing usable arrived (a document that never finishes parsing)', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    const error = await h.err('browser_navigate', {
      ...s,
      url: site.url('/slow-body?ms=5000'),
      timeoutMs: 1200,
    });
    expect(error.code).toBe('OPERATION_TIMEOUT');
  });
});

describe('about:blank and data: URLs', () => {
  test('navigates to about:blank and to a bounded data: URL', async ({ site, harness: h }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
    expect(await h.ok<Nav>('browser_navigate', { ...s, url: 'about:blank' })).toMatchObject({
      url: 'about:blank',
      status: null,
    });
    const data = 'data:text/html,<title>Inline</title><button>Press</button>';
    const nav = await h.ok<Nav>('browser_navigate', { ...s, url: data });
    expect(nav.title).toBe('Inline');
    const snap = await h.ok<{ snapshot: string }>('browser_snapshot', { ...s, interactiveOnly: true });
    expect(snap.snapshot).toContain('Press');
  });

  test('refuses file:, javascript:, chrome: and relative URLs, and an oversized data: URL', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'chrome://settings',
      'about:config',
      '/relative',
      `data:text/plain,${'x'.repeat(8200)}`,
    ]) {
      const error = await h.err('browser_navigate', { ...s, url });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details?.field).toBe('url');
      expect(error.message).not.toContain('passwd');
    }
    // The session still works after the refusals.
    expect(await h.ok<Nav>('browser_navigate', { ...s, url: site.url('/quiet') })).toMatchObject({
      status: 200,
    });
  });
});
