import { describe, expect, test } from './support/fixtures.js';
import { McpHarness } from '../helpers/harness.js';
import { chromiumChildren, killChromium } from './support/chromium-processes.js';
import { waitFor } from './support/wait.js';

/**
 * Crash recovery (a new session navigates within about a second of being asked): the
 * server starts the replacement browser as soon as it sees the crash, every time sessions were using
 * the browser that died, so the next session does not wait for a launch. The timing itself is
 * measured by the stress harness (test/stress/on-demand/crash.test.ts), not asserted here.
 */

type BrowserState = 'idle' | 'launching' | 'ready' | 'disconnected';
const browserState = (h: McpHarness): BrowserState => h.mesh.runtimeInfo().browser.state as BrowserState;

describe('relaunch after a crash', () => {
  test('a browser that sessions used is replaced without being asked, again after a second crash soon after', async ({
    site,
    harness: h,
  }) => {
    for (let crash = 1; crash <= 2; crash++) {
      const s = await h.session();
      await h.ok('browser_navigate', { ...s, url: site.url(`/title?t=Crash${crash}`) });
      const before = chromiumChildren();
      expect(killChromium()).toBeGreaterThan(0);
      // Seen the crash, and a new browser is up, with no session asking for one.
      await waitFor(
        () => browserState(h) === 'ready' && chromiumChildren().some((pid) => !before.includes(pid)),
        30_000,
        `a new browser after crash ${crash}`,
      );
      expect(h.mesh.getSession(s.sessionId).state).toBe('failed');
    }
    const fresh = await h.session();
    const nav = await h.ok<{ title: string }>('browser_navigate', {
      ...fresh,
      url: site.url('/title?t=Back'),
    });
    expect(nav.title).toBe('Back');
  });

  test('a bad session id is still refused while the browser is being replaced', async ({ harness: h }) => {
    expect((await h.err('browser_get_url', { sessionId: 'nope', pageId: 'nope' })).code).toBe(
      'SESSION_NOT_FOUND',
    );
  });
});
