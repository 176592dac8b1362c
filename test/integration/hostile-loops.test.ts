import { describe, expect, test } from './support/fixtures.js';
import { type FixtureServer } from '../fixtures/server.mjs';
import { McpHarness, textOf } from '../helpers/harness.js';
import { waitFor, within } from './support/wait.js';

/**
 * Pages whose loop comes back after the engine stops it (a page stuck in a loop can always
 * be navigated away from or closed): an interval that re-arms a spin, a spin in bursts of 2 s every
 * 10 ms, and a page that also spins while it is being left. Each is navigated away from (navigate,
 * back, reload) within the call's own deadline, and its session closes within the close bound.
 */

/** The deadline each navigation away is given: far below the 20 s default a stuck call would use up. */
const NAV_DEADLINE_MS = 10_000;
/** Close is bounded at a few seconds (docs/reliability.md); generous for a loaded machine. */
const CLOSE_BOUND_MS = 8_000;

const LOOPS = {
  'an interval that spins 2 s in every 10 ms': '/hostile/spin?delay=10&burst=2000&repeat=1',
  'a loop that starts at once on every load': '/hostile/spin?delay=0&burst=2000&repeat=1&leave=1',
} as const;

/**
 * Loops that come back endlessly after every termination: Chromium may then never let the navigation
 * commit (it stops answering Runtime.terminateExecution while the navigation is pending), so the
 * stuck page's target is replaced by a fresh page under the same id (Session.replaceStuckPage).
 */
const ENDLESS = {
  'an interval that re-arms an endless loop': '/hostile/spin?delay=300&repeat=1',
  'an endless loop that also runs while the page is left': '/hostile/spin?delay=300&repeat=1&leave=1',
} as const;

/** Waits until the session's page no longer answers a script (its loop runs). */
async function untilSpinning(h: McpHarness, s: { sessionId: string; pageId: string }): Promise<void> {
  const page = h.mesh.getSession(s.sessionId).getPage(s.pageId).page;
  const busy = async (): Promise<boolean> =>
    (await within(
      page.evaluate('1').catch(() => 1),
      300,
    )) === 'pending';
  await waitFor(busy, 15_000, 'the page to spin');
}

/** Opens `path` in a new session and waits until the page no longer answers a script. */
async function spinning(
  h: McpHarness,
  site: FixtureServer,
  path: string,
): Promise<{ sessionId: string; pageId: string }> {
  const s = await h.session();
  await h.call('browser_navigate', { ...s, url: site.url(path), timeoutMs: NAV_DEADLINE_MS });
  await untilSpinning(h, s);
  return s;
}

/** 'closed' when the close call answered without error within the bound, else what happened. */
async function closedWithinBound(
  h: McpHarness,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const closed = await within(h.call(name, args), CLOSE_BOUND_MS);
  return closed === 'pending' ? 'still closing' : closed.isError === true ? textOf(closed) : 'closed';
}

/** A call's result within its deadline plus slack; 'pending' when it hung past it. */
async function answered(h: McpHarness, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await within(h.call(name, { ...args, timeoutMs: NAV_DEADLINE_MS }), NAV_DEADLINE_MS + 3_000);
  if (result === 'pending') return 'no answer within the deadline';
  return result.isError ? textOf(result) : JSON.stringify(result.structuredContent);
}

describe('a page whose loop comes back', () => {
  for (const [what, path] of Object.entries(LOOPS)) {
    test(`${what}: navigated away from within the deadline, then closed within the bound`, async ({
      site,
      harness: h,
    }) => {
      const s = await spinning(h, site, path);
      const away = await answered(h, 'browser_navigate', { ...s, url: site.url('/title?t=Away') });
      expect(away).toContain('"title":"Away"');
      expect(await closedWithinBound(h, 'browser_session_close', { sessionId: s.sessionId })).toBe('closed');
    });
  }

  for (const [what, path] of Object.entries(ENDLESS)) {
    test(`${what}: its session closes within the bound`, async ({ site, harness: h }) => {
      const s = await spinning(h, site, path);
      expect(await closedWithinBound(h, 'browser_session_close', { sessionId: s.sessionId })).toBe('closed');
    });
    test(`${what}: navigated away from within the deadline, on the same page id, which keeps working`, async ({
      site,
      harness: h,
    }) => {
      const s = await spinning(h, site, path);
      const away = await answered(h, 'browser_navigate', { ...s, url: site.url('/title?t=Away') });
      expect(away).toContain('"title":"Away"');
      const session = h.mesh.getSession(s.sessionId);
      expect(session.listPages().map((page) => page.id)).toEqual([s.pageId]);
      await h.ok('browser_navigate', { ...s, url: site.url('/forms') });
      const snapshot = textOf(await h.call('browser_snapshot', s));
      expect(snapshot).toContain('textbox');
      await h.ok('browser_type', { ...s, locator: { css: 'input[type=text]' }, text: 'still here' });
      expect(await session.getPage(s.pageId).page.inputValue('input[type=text]')).toBe('still here');
      await h.ok('browser_session_close', { sessionId: s.sessionId });
    });
  }

  const BACK_AND_RELOAD = [
    // An endless loop: the page's target is replaced when it must be (Session.replaceStuckPage).
    ['an endless loop', ENDLESS['an interval that re-arms an endless loop'], 'repeat=1'],
    ['a re-arming loop', LOOPS['an interval that spins 2 s in every 10 ms'], 'burst=2000'],
  ] as const;
  for (const [what, loop, marker] of BACK_AND_RELOAD) {
    test(`back and reload leave ${what} too`, async ({ site, harness: h }) => {
      const s = await h.session();
      await h.ok('browser_navigate', { ...s, url: site.url('/title?t=First') });
      await h.call('browser_navigate', { ...s, url: site.url(loop), timeoutMs: NAV_DEADLINE_MS });
      await untilSpinning(h, s);
      const back = await answered(h, 'browser_back', s);
      expect(back).toContain('"title":"First"');
      await h.call('browser_navigate', { ...s, url: site.url(loop), timeoutMs: NAV_DEADLINE_MS });
      await untilSpinning(h, s);
      // Reloading a spinning page is leaving it too: the fresh document then spins again by itself
      // (its title may not be readable while it spins, so the URL says where it is).
      const reloaded = await answered(h, 'browser_reload', s);
      expect(reloaded).toContain('"url":"http');
      expect(reloaded).toContain(marker);
      expect(await closedWithinBound(h, 'browser_session_close', { sessionId: s.sessionId })).toBe('closed');
    });
  }

  test('closing the spinning page alone is bounded and leaves the session working', async ({
    site,
    harness: h,
  }) => {
    const s = await spinning(h, site, ENDLESS['an endless loop that also runs while the page is left']);
    const other = (
      await h.ok<{ page: { pageId: string } }>('browser_page_create', { sessionId: s.sessionId })
    ).page;
    expect(await closedWithinBound(h, 'browser_page_close', s)).toBe('closed');
    const nav = await answered(h, 'browser_navigate', {
      sessionId: s.sessionId,
      pageId: other.pageId,
      url: site.url('/title?t=Other'),
    });
    expect(nav).toContain('"title":"Other"');
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });
});
