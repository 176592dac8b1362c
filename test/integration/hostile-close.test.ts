import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { textOf, type ErrorPayload } from '../helpers/harness.js';
import { within } from './support/wait.js';

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, () => ({
  maxSessions: 2,
  maxQueuedOps: 8,
}));

/** A close that has not answered by then counts as hung (hung closes of 30, 60 and 180 s have been seen). */
const CLOSE_BOUND_MS = 10_000;

function errorOf(result: { isError?: boolean; content: unknown }): ErrorPayload | undefined {
  if (!result.isError) return undefined;
  return (JSON.parse(textOf(result as Parameters<typeof textOf>[0])) as { error: ErrorPayload }).error;
}

describe('closing a session whatever its page does', () => {
  test('closes sessions whose pages spin for ever, and their slots come back', async ({
    site,
    harness: h,
  }) => {
    const spinning = [await h.session(), await h.session()];
    for (const s of spinning)
      await h.ok('browser_navigate', { ...s, url: site.url('/hostile/spin?delay=300') });
    // Both slots are taken: a third session is refused until one closes.
    expect((await h.err('browser_session_create')).code).toBe('LIMIT_EXCEEDED');
    for (const s of spinning) {
      const closed = await within(
        h.ok<{ state: string }>('browser_session_close', { sessionId: s.sessionId }),
        CLOSE_BOUND_MS,
      );
      expect(closed === 'pending' ? 'still closing' : closed.state).toBe('closed');
    }
    const fresh = await h.session();
    const nav = await h.ok<{ title: string }>('browser_navigate', {
      ...fresh,
      url: site.url('/title?t=Fresh'),
    });
    expect(nav.title).toBe('Fresh');
    await h.ok('browser_session_close', { sessionId: fresh.sessionId });
  });

  test('fails queued work at once with SESSION_CLOSED and interrupts the running wait', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
    const waits = Array.from({ length: 6 }, () =>
      h.call('browser_wait', { ...s, text: 'never on this page', timeoutMs: 600_000 }),
    );
    const closed = await within(
      h.ok<{ state: string }>('browser_session_close', { sessionId: s.sessionId }),
      CLOSE_BOUND_MS,
    );
    expect(closed === 'pending' ? 'still closing' : closed.state).toBe('closed');
    const codes = (await Promise.all(waits)).map((result) => errorOf(result)?.code);
    expect(codes).toEqual(Array.from({ length: 6 }, () => 'SESSION_CLOSED'));
  });

  test('bounds the per-session queue: calls beyond maxQueuedOps are refused with LIMIT_EXCEEDED', async ({
    harness: h,
  }) => {
    const s = await h.session();
    const waits = Array.from({ length: 12 }, () =>
      h.call('browser_wait', { ...s, text: 'never on this page', timeoutMs: 600_000 }),
    );
    // The refused ones answer at once, while the accepted ones are still waiting.
    const settled = await Promise.all(waits.slice(8).map((call) => within(call, CLOSE_BOUND_MS)));
    const refused = settled.map((result) => (result === 'pending' ? 'pending' : errorOf(result)));
    for (const error of refused) {
      expect(error).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { field: 'maxQueuedOps', limit: 8 } });
    }
    await h.ok('browser_session_close', { sessionId: s.sessionId });
    const accepted = (await Promise.all(waits.slice(0, 8))).map((result) => errorOf(result)?.code);
    expect(accepted).toEqual(Array.from({ length: 8 }, () => 'SESSION_CLOSED'));
  });

  test('closes a page whose script spins, and shutdown finishes with spinning pages open', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    const extra = await h.ok<{ page: { pageId: string } }>('browser_page_create', { sessionId: s.sessionId });
    const pageId = extra.page.pageId;
    await h.ok('browser_navigate', {
      sessionId: s.sessionId,
      pageId,
      url: site.url('/hostile/spin?delay=300&repeat=1'),
    });
    await h.ok('browser_navigate', { ...s, url: site.url('/hostile/spin?delay=300&repeat=1') });
    const closed = await within(
      h.ok('browser_page_close', { sessionId: s.sessionId, pageId }),
      CLOSE_BOUND_MS,
    );
    expect(closed).not.toBe('pending');
    expect((await h.err('browser_get_url', { sessionId: s.sessionId, pageId })).code).toBe('PAGE_NOT_FOUND');
    expect(await within(h.mesh.shutdown(), CLOSE_BOUND_MS)).not.toBe('pending');
  });
});
