import type { ServerResponse } from 'node:http';
import { describe, expect, test } from './support/fixtures.js';
import { type FixtureServer } from '../fixtures/server.mjs';

/** A route that holds every request until released, and counts what arrived. */
function gatedRoute(
  site: FixtureServer,
  path: string,
): {
  arrived: () => number;
  waitForArrivals: (n: number) => Promise<void>;
  release: () => void;
} {
  let count = 0;
  const held: ServerResponse[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let released = false;
  const answer = (res: ServerResponse): void => {
    res.setHeader('content-type', 'text/html');
    res.end(`<title>${path}</title><p>released</p>`);
  };
  site.route(path, (_req, res) => {
    count++;
    for (const w of waiters.filter((w) => count >= w.n)) w.resolve();
    if (released) answer(res);
    else held.push(res);
  });
  return {
    arrived: () => count,
    waitForArrivals: (n) =>
      count >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    release: () => {
      released = true;
      for (const res of held.splice(0)) answer(res);
    },
  };
}

describe('per-session queues', () => {
  test("runs one session's operations in acceptance order under concurrent calls", async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    const calls = [
      h.ok<{ url: string }>('browser_navigate', { ...s, url: site.url('/slow?ms=300') }),
      h.ok<{ url: string }>('browser_get_url', s),
      h.ok('browser_navigate', { ...s, url: site.url('/title?t=Second') }),
      h.ok<{ title: string }>('browser_get_title', s),
      h.ok('browser_navigate', { ...s, url: site.url('/title?t=Third') }),
      h.ok<{ title: string }>('browser_get_title', s),
    ];
    const results = await Promise.all(calls);
    expect((results[1] as { url: string }).url).toBe(site.url('/slow?ms=300'));
    expect((results[3] as { title: string }).title).toBe('Second');
    expect((results[5] as { title: string }).title).toBe('Third');
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('runs different sessions in parallel (two held navigations are in flight at once)', async ({
    site,
    harness: h,
  }) => {
    const gate = gatedRoute(site, '/overlap');
    const a = await h.session();
    const b = await h.session();
    const navA = h.ok('browser_navigate', { ...a, url: site.url('/overlap') });
    const navB = h.ok('browser_navigate', { ...b, url: site.url('/overlap') });
    await gate.waitForArrivals(2); // both requests reached the server before either got an answer
    gate.release();
    await Promise.all([navA, navB]);
    await h.ok('browser_session_close', { sessionId: a.sessionId });
    await h.ok('browser_session_close', { sessionId: b.sessionId });
  });

  test('a failing operation does not block the next one', async ({ site, harness: h }) => {
    const s = await h.session();
    const failing = h.err('browser_navigate', { ...s, url: site.refusedUrl });
    const next = h.ok<{ title: string }>('browser_navigate', { ...s, url: site.url('/title?t=After') });
    expect((await failing).code).toBe('NAVIGATION_FAILED');
    expect((await next).title).toBe('After');
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('queue wait consumes the deadline: a queued read times out behind a held navigation', async ({
    site,
    harness: h,
  }) => {
    const gate = gatedRoute(site, '/held-for-deadline');
    const s = await h.session();
    const nav = h.ok('browser_navigate', { ...s, url: site.url('/held-for-deadline'), timeoutMs: 30_000 });
    await gate.waitForArrivals(1);
    const read = await h.err('browser_get_url', { ...s, timeoutMs: 200 });
    expect(read.code).toBe('OPERATION_TIMEOUT');
    gate.release();
    await nav;
    expect((await h.ok<{ url: string }>('browser_get_url', s)).url).toBe(site.url('/held-for-deadline'));
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('a running navigation past its deadline times out and the queue keeps working', async ({
    site,
    harness: h,
  }) => {
    const gate = gatedRoute(site, '/held-timeout');
    const s = await h.session();
    const timedOut = await h.err('browser_navigate', {
      ...s,
      url: site.url('/held-timeout'),
      timeoutMs: 300,
    });
    expect(timedOut.code).toBe('OPERATION_TIMEOUT');
    gate.release();
    expect(
      (await h.ok<{ title: string }>('browser_navigate', { ...s, url: site.url('/title?t=Fine') })).title,
    ).toBe('Fine');
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('cancelling a queued request leaves the browser untouched', async ({ site, harness: h }) => {
    const gate = gatedRoute(site, '/held-for-cancel');
    const untouched = gatedRoute(site, '/must-not-load');
    untouched.release();
    const s = await h.session();
    const nav = h.ok('browser_navigate', { ...s, url: site.url('/held-for-cancel'), timeoutMs: 30_000 });
    await gate.waitForArrivals(1);
    const controller = new AbortController();
    const cancelled = h.call(
      'browser_navigate',
      { ...s, url: site.url('/must-not-load') },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    gate.release();
    await nav;
    // A later operation runs after the cancelled one would have: the browser never saw it.
    expect((await h.ok<{ url: string }>('browser_get_url', s)).url).toBe(site.url('/held-for-cancel'));
    expect(untouched.arrived()).toBe(0);
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('closing refuses new work, interrupts the running operation and answers without waiting for it', async ({
    site,
    harness: h,
  }) => {
    const gate = gatedRoute(site, '/held-for-close');
    const s = await h.session();
    const nav = h.err('browser_navigate', { ...s, url: site.url('/held-for-close'), timeoutMs: 30_000 });
    await gate.waitForArrivals(1);
    const closing = h.ok<{ state: string }>('browser_session_close', { sessionId: s.sessionId });
    expect((await h.err('browser_get_url', s)).code).toBe('SESSION_CLOSED');
    // The held response is never sent before the close answers: close does not wait for the page.
    expect((await closing).state).toBe('closed');
    expect((await nav).code).toBe('SESSION_CLOSED');
    gate.release();
  });
});
