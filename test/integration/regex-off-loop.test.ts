/**
 * A caller's regular expression ran on the server's event loop: `browser_find { regex: "/^(a+)+$/" }`
 * on a 30-character name froze every session for seconds, and a `/regexp/` route did the same on a
 * URL the page chose. Regexes now run on worker threads: the slow one is OPERATION_TIMEOUT for its
 * own call while another session's calls are answered, and a route whose regexp cannot decide a URL
 * in its budget does not match it (counted on the route). Route bodies have a bound of their own.
 * Real Chromium on the loopback fixture.
 */
import { vi } from 'vitest';
import type { Config } from '../../src/config/load.js';
import { regexWorkerStats } from '../../src/engine/regex-worker.js';
import { ROUTE_LIMITS } from '../../src/operations/state/routes.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

/** Exponential for /^(a+)+$/: far past any deadline below. */
const EVIL = `${'a'.repeat(36)}!`;

let site: FixtureServer;
let h: McpHarness;

const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'network'],
}));

test.beforeAll(({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  site.route('/rx/page', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>rx</title><h1>Second</h1><button>${EVIL}</button>`);
  });
  site.route('/rx/fetcher', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const long = `/g/${'g/'.repeat(4000)}y`;
    res.end(`<!doctype html><title>fetcher</title><button onclick="fetch('${long}')">Fetch</button>`);
  });
});

/** A new session on the regex page; closed after the test. */
async function sessionOnPage(onCleanup: (fn: () => Promise<void>) => void) {
  const s = await h.session();
  onCleanup(async () => {
    await h.call('browser_session_close', { sessionId: s.sessionId });
  });
  await h.ok('browser_navigate', { ...s, url: site.url('/rx/page') });
  return s;
}

function fetchFromPage(s: { sessionId: string; pageId: string }, url: string) {
  return h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', ({ page }) =>
    page.page.evaluate(async (target) => {
      const response = await fetch(target);
      return { status: response.status, body: await response.text() };
    }, url),
  );
}

describe('regexes off the event loop', () => {
  test('a catastrophic find regex times out alone while another session answers', async ({
    onTestFinished,
  }) => {
    const a = await sessionOnPage(onTestFinished);
    const b = await sessionOnPage(onTestFinished);
    const before = regexWorkerStats.running;
    let slowDone = false;
    const slow = h.err('browser_find', { ...a, regex: '/^(a+)+$/', timeoutMs: 8_000 }).finally(() => {
      slowDone = true;
    });
    // The slow pattern is matching on its worker...
    await vi.waitFor(() => expect(regexWorkerStats.running).toBeGreaterThan(before), {
      timeout: 60_000,
      interval: 10,
    });
    // ...and the other session's calls are answered before it ends (its deadline is seconds away).
    const found = await h.ok<{ total: number }>('browser_find', { ...b, text: 'Second' });
    expect(found.total).toBe(1);
    await h.ok('browser_snapshot', b);
    expect(slowDone).toBe(false);
    const error = await slow;
    expect(error.code).toBe('OPERATION_TIMEOUT');
    // The first session keeps working, regexes included.
    const again = await h.ok<{ total: number }>('browser_find', { ...a, regex: '/^a+!$/' });
    expect(again.total).toBe(1);
  });

  test('an invalid regex is INVALID_ARGUMENT naming the field', async ({ onTestFinished }) => {
    const a = await sessionOnPage(onTestFinished);
    const error = await h.err('browser_find', { ...a, regex: '/(/' });
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.details).toMatchObject({ field: 'regex' });
    const route = await h.err('browser_route', {
      sessionId: a.sessionId,
      action: 'add',
      url: '/[/',
      body: 'x',
    });
    expect(route.details).toMatchObject({ field: 'url' });
  });

  test('a regexp route matches off the loop; a URL it cannot decide in time is not matched', async ({
    onTestFinished,
  }) => {
    const a = await sessionOnPage(onTestFinished);
    const added = await h.ok<{ route: { routeId: string } }>('browser_route', {
      sessionId: a.sessionId,
      action: 'add',
      url: '/^http:.*\\/rx\\/(a+)+$/',
      body: 'mocked',
    });
    expect(await fetchFromPage(a, site.url('/rx/aaaa'))).toEqual({ status: 200, body: 'mocked' });
    // The page chose a URL the pattern backtracks on: the route passes it on, unmatched.
    const passed = await fetchFromPage(a, site.url(`/rx/${EVIL}`));
    expect(passed.body).not.toBe('mocked');
    const list = await h.ok<{ routes: Array<{ routeId: string; hits: number; regexTimeouts?: number }> }>(
      'browser_route',
      { sessionId: a.sessionId },
    );
    const info = list.routes.find((r) => r.routeId === added.route.routeId);
    expect(info).toMatchObject({ hits: 1, regexTimeouts: 1 });
  });

  test("an action's response glob is matched off the loop while another session answers", async ({
    onTestFinished,
  }) => {
    const a = await sessionOnPage(onTestFinished);
    const b = await sessionOnPage(onTestFinished);
    await h.ok('browser_navigate', { ...a, url: site.url('/rx/fetcher') });
    const before = regexWorkerStats.running;
    let slowDone = false;
    // Three `**` backtrack cubically on the thousands of segments the page's own request has.
    const slow = h
      .err('browser_action_and_wait', {
        ...a,
        target: { locator: { role: 'button', name: 'Fetch' } },
        waitFor: { kind: 'response', url: '**/g/**/g/**/z' },
        timeoutMs: 8_000,
      })
      .finally(() => {
        slowDone = true;
      });
    await vi.waitFor(
      () => {
        if (slowDone) throw new Error('the action ended before its glob was matching');
        expect(regexWorkerStats.running).toBeGreaterThan(before);
      },
      { timeout: 60_000, interval: 10 },
    );
    expect((await h.ok<{ total: number }>('browser_find', { ...b, text: 'Second' })).total).toBe(1);
    expect(slowDone).toBe(false);
    expect((await slow).code).toBe('OPERATION_TIMEOUT');
    await h.ok('browser_snapshot', a);
  });

  test('a glob route is matched off the loop as Playwright reads it', async ({ onTestFinished }) => {
    const a = await sessionOnPage(onTestFinished);
    const added = await h.ok<{ route: { routeId: string } }>('browser_route', {
      sessionId: a.sessionId,
      action: 'add',
      url: '**/g/**/g/**/z',
      body: 'globbed',
    });
    expect(await fetchFromPage(a, site.url('/g/x/g/y/z'))).toEqual({ status: 200, body: 'globbed' });
    // Thousands of segments make the glob's expression backtrack: passed on, unmatched.
    const passed = await fetchFromPage(a, site.url(`/g/${'g/'.repeat(4000)}y`));
    expect(passed.body).not.toBe('globbed');
    const list = await h.ok<{ routes: Array<{ routeId: string; hits: number; regexTimeouts?: number }> }>(
      'browser_route',
      { sessionId: a.sessionId },
    );
    expect(list.routes.find((r) => r.routeId === added.route.routeId)).toMatchObject({
      hits: 1,
      regexTimeouts: 1,
    });
    const bad = await h.err('browser_route', {
      sessionId: a.sessionId,
      action: 'add',
      url: '**/{a',
      body: 'x',
    });
    expect(bad).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'url' } });
  });
});

describe('route bodies', () => {
  test("the session's fulfilled bodies are bounded all together", async ({ onTestFinished }) => {
    const a = await sessionOnPage(onTestFinished);
    const size = 4 * 1024 * 1024;
    const count = Math.floor(ROUTE_LIMITS.maxTotalBodyBytes / size);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const added = await h.ok<{ route: { routeId: string } }>('browser_route', {
        sessionId: a.sessionId,
        action: 'add',
        url: `**/big/${i}`,
        bodyBase64: Buffer.alloc(size, i).toString('base64'),
      });
      ids.push(added.route.routeId);
    }
    const over = await h.err('browser_route', {
      sessionId: a.sessionId,
      action: 'add',
      url: '**/big/over',
      bodyBase64: Buffer.alloc(size, 1).toString('base64'),
    });
    expect(over.code).toBe('LIMIT_EXCEEDED');
    expect(over.details).toMatchObject({ field: 'body', limit: ROUTE_LIMITS.maxTotalBodyBytes });
    // A route without a body still fits; removing one makes room again.
    await h.ok('browser_route', { sessionId: a.sessionId, action: 'add', url: '**/plain', abort: 'failed' });
    await h.ok('browser_route', { sessionId: a.sessionId, action: 'remove', routeId: ids[0] });
    await h.ok('browser_route', {
      sessionId: a.sessionId,
      action: 'add',
      url: '**/big/again',
      bodyBase64: Buffer.alloc(size, 2).toString('base64'),
    });
    expect(await fetchFromPage(a, site.url('/big/again')).then((r) => r.body.length)).toBe(size);
  });
});
