/**
 * What a session costs inside Chromium: its context opens one window, and that window starts no
 * browser UI of its own (the omnibox popup's WebUI renderers are switched off at launch, see
 * src/engine/providers/chromium-features.ts), while pages work as before.
 */
import { describe, expect, test } from './support/fixtures.js';

describe('a session in the launched Chromium', () => {
  test('opens its page without browser UI targets (no omnibox WebUI per window)', async ({
    harness,
    session,
    site,
  }) => {
    await harness.ok('browser_navigate', { ...session, url: site.url('/shop/') });
    const second = await harness.session();
    const browser = harness.mesh.getSession(session.sessionId).browserLease?.browser;
    if (!browser) throw new Error('the session has no browser');
    const cdp = await browser.newBrowserCDPSession();
    try {
      const { targetInfos } = (await cdp.send('Target.getTargets')) as {
        targetInfos: Array<{ type: string; url: string }>;
      };
      expect(
        targetInfos.filter((target) => target.type === 'browser_ui').map((target) => target.url),
      ).toEqual([]);
      expect(targetInfos.filter((target) => target.type === 'page').length).toBeGreaterThanOrEqual(2);
    } finally {
      await cdp.detach();
      await harness.call('browser_session_close', { sessionId: second.sessionId });
    }
  });
});
