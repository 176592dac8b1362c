import type { ServerResponse } from 'node:http';
import { describe, expect, test } from './support/fixtures.js';
import { dialogRouterOf } from '../../src/operations/page-services/dialogs.js';
import { type FixtureServer } from '../fixtures/server.mjs';
import { textOf } from '../helpers/harness.js';
import { testAgentBrowser, ToolDriver } from './support/agent.js';
import { waitFor, within } from './support/wait.js';

/** Longer than any bounded step here, far shorter than the 20 s deadline a stuck call would wait out. */
const PROMPT_MS = 8_000;

/** A route that answers only when released; resolves `arrived` with the first request. */
function heldRoute(site: FixtureServer, path: string): { arrived: Promise<void>; release(): void } {
  const held: ServerResponse[] = [];
  let arrive: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  site.route(path, (_req, res) => {
    held.push(res);
    arrive();
  });
  return {
    arrived,
    release: () => {
      for (const res of held.splice(0)) res.end('<title>late</title>');
    },
  };
}

/** Whether `promise` settles within `ms` (a spinning page never answers an evaluation). */
async function answersWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  promise.catch(() => undefined);
  return (
    (await within(
      promise.then(() => 'answered'),
      ms,
    )) === 'answered'
  );
}

describe('cancellation stops the browser work', () => {
  test('a cancelled navigation (notifications/cancelled) stops loading and frees the queue at once', async ({
    site,
    harness: h,
  }) => {
    const held = heldRoute(site, '/held-cancel-nav');
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/title?t=Before') });
    const controller = new AbortController();
    const nav = h.call(
      'browser_navigate',
      { ...s, url: site.url('/held-cancel-nav') },
      { signal: controller.signal },
    );
    await held.arrived;
    controller.abort();
    await expect(nav).rejects.toThrow();
    // The held response never comes: the next call is answered only if the navigation was stopped.
    const next = await within(h.ok<{ url: string }>('browser_get_url', s), PROMPT_MS);
    expect(next === 'pending' ? 'still waiting' : next.url).toBe(site.url('/title?t=Before'));
    held.release();
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test("an AgentBrowser tool call's AbortSignal stops its navigation, and the thread's next call runs", async ({
    site,
  }) => {
    const held = heldRoute(site, '/held-cancel-agent');
    const browser = testAgentBrowser();
    try {
      const controller = new AbortController();
      const cancelling = new ToolDriver(browser, { threadId: 't1', signal: controller.signal });
      const plain = new ToolDriver(browser, { threadId: 't1' });
      await plain.ok('browser_goto', { url: site.url('/title?t=Before') });
      const nav = cancelling.call('browser_goto', { url: site.url('/held-cancel-agent') });
      await held.arrived;
      controller.abort();
      expect(await nav).toMatchObject({ error: { code: 'OPERATION_CANCELLED' } });
      const title = await within(
        plain.ok<{ value: string }>('browser_evaluate', { script: 'document.title', returnValue: true }),
        PROMPT_MS,
      );
      expect(title === 'pending' ? 'still waiting' : title.value).toBe('Before');
    } finally {
      held.release();
      await browser.close();
    }
  });
});

describe('hostile pages', () => {
  test('navigates away from a page stuck in a JavaScript loop', async ({ site, harness: h }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/hostile/spin?delay=300') });
    const page = h.mesh.getSession(s.sessionId).getPage(s.pageId).page;
    await waitFor(async () => !(await answersWithin(page.evaluate('1'), 300)), 10_000, 'the page to spin');
    const away = await within(
      h.ok<{ title: string }>('browser_navigate', {
        ...s,
        url: site.url('/title?t=Away'),
        timeoutMs: 15_000,
      }),
      PROMPT_MS * 2,
    );
    expect(away === 'pending' ? 'still navigating' : away.title).toBe('Away');
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('stops a dialog storm: the page can be navigated away from and the session keeps working', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/hostile/alert-storm?every=1') });
    const router = dialogRouterOf(h.mesh.getSession(s.sessionId).getPage(s.pageId));
    await waitFor(() => router.storms >= 1, 10_000, 'the dialog storm to be detected');
    // Stopped, not just survived: the page answers reads again.
    const title = async (): Promise<string> => (await h.ok<{ title: string }>('browser_get_title', s)).title;
    await waitFor(async () => (await title()) === 'Alert storm', 10_000, 'the page to answer a title read');
    const away = await h.call('browser_navigate', {
      ...s,
      url: site.url('/title?t=Calm'),
      timeoutMs: 15_000,
    });
    expect(away.isError ? textOf(away) : 'navigated').toBe('navigated');
    expect((away.structuredContent as { title: string }).title).toBe('Calm');
    expect((await h.ok<{ title: string }>('browser_get_title', s)).title).toBe('Calm');
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('AgentBrowser.closeThread() and close() finish within their bound while thread pages spin', async ({
    site,
  }) => {
    const browser = testAgentBrowser();
    const spinner = new ToolDriver(browser, { threadId: 'spinner' });
    const other = new ToolDriver(browser, { threadId: 'other' });
    await spinner.ok('browser_goto', { url: site.url('/hostile/spin?delay=300&repeat=1') });
    await other.ok('browser_goto', { url: site.url('/hostile/spin?delay=300&repeat=1') });
    expect(await within(browser.closeThread('spinner'), PROMPT_MS * 2)).not.toBe('pending');
    // The thread starts afresh on its next call.
    const again = await spinner.ok<{ title?: string }>('browser_goto', { url: site.url('/title?t=Again') });
    expect(JSON.stringify(again)).toContain('Again');
    expect(await within(browser.close(), PROMPT_MS * 2)).not.toBe('pending');
  });
});
