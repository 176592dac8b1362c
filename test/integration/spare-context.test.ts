import { afterEach, expect } from 'vitest';
import { createBrowserMesh } from '../../src/create-mesh.js';
import { createLogger } from '../../src/engine/logger.js';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import { spareStats } from '../../src/engine/spare-context.js';
import { testConfig } from '../helpers/harness.js';
import { test } from './support/fixtures.js';
import { waitFor } from './support/wait.js';

// Each test needs a runtime of its own: the warm-up makes one spare per runtime, once.
let mesh: BrowserMesh | undefined;

afterEach(async () => {
  await mesh?.shutdown();
  mesh = undefined;
});

function freshMesh(): BrowserMesh {
  mesh = createBrowserMesh({ config: testConfig(), logger: createLogger('silent') });
  return mesh;
}

/** Warms the runtime up and waits until its spare context exists. */
async function warmedUp(): Promise<BrowserMesh> {
  const made = spareStats.made;
  const runtime = freshMesh();
  await runtime.warmUp();
  await waitFor(() => spareStats.made > made, 30_000, 'the spare context');
  return runtime;
}

test('the first default session takes the spare; the next makes its own, and they share nothing', async ({
  site,
}) => {
  const runtime = await warmedUp();
  const taken = spareStats.taken;
  const first = await runtime.createSession();
  expect(spareStats.taken).toBe(taken + 1);
  const second = await runtime.createSession();
  expect(spareStats.taken).toBe(taken + 1);

  const a = runtime.getSession(first.session.sessionId);
  const b = runtime.getSession(second.session.sessionId);
  expect(a.browserContext).not.toBe(b.browserContext);
  // Each navigates through its own URL guard, and a cookie set in one is not seen by the other.
  for (const [session, page] of [
    [a, first.initialPage.pageId],
    [b, second.initialPage.pageId],
  ] as const) {
    const response = await session.getPage(page).page.goto(site.url('/'));
    expect(response?.status()).toBe(200);
  }
  await a.browserContext.addCookies([{ name: 'only_a', value: '1', url: site.url('/') }]);
  expect(await b.browserContext.cookies()).toEqual([]);
  expect((await a.browserContext.cookies()).map((cookie) => cookie.name)).toEqual(['only_a']);

  // Closing the spare's session leaves the other working.
  await runtime.closeSession(first.session.sessionId);
  expect((await b.getPage(second.initialPage.pageId).page.goto(site.url('/')))?.status()).toBe(200);
});

test('a session with settings of its own does not take the spare', async () => {
  const runtime = await warmedUp();
  const taken = spareStats.taken;
  const own = await runtime.createSession({ contextSettings: { viewport: { width: 400, height: 300 } } });
  expect(spareStats.taken).toBe(taken);
  expect(
    runtime.getSession(own.session.sessionId).getPage(own.initialPage.pageId).page.viewportSize(),
  ).toEqual({ width: 400, height: 300 });
  await runtime.createSession({ name: 'defaults' });
  expect(spareStats.taken).toBe(taken + 1);
});

test('a session asked for during the launch makes its own context, and no spare follows', async () => {
  const runtime = freshMesh();
  const made = spareStats.made;
  const launching = runtime.warmUp();
  // createSession claims the spare before its first await, so before the launch can have ended.
  const created = await runtime.createSession();
  await launching;
  expect(created.session.sessionId).toMatch(/\S/);
  await runtime.createSession();
  expect(spareStats.made).toBe(made);
});

test('a spare nobody took is closed at shutdown', async () => {
  const runtime = await warmedUp();
  const discarded = spareStats.discarded;
  await runtime.shutdown();
  mesh = undefined;
  expect(spareStats.discarded).toBe(discarded + 1);
});

test('a spare nobody took goes when the idle browser is released, and the next session makes its own', async () => {
  const runtime = await warmedUp();
  const { discarded, taken } = spareStats;
  expect(await runtime.releaseIdleBrowser()).toBe(true);
  expect(spareStats.discarded).toBe(discarded + 1);
  const created = await runtime.createSession();
  expect(created.session.sessionId).toMatch(/\S/);
  expect(spareStats.taken).toBe(taken);
});
