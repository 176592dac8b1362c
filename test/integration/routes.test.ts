import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };
let roots: string;

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
// Its upload root (a file to fulfil from) exists before the harness that allows it, and goes after it.
const test = fixtureTest.extend(
  'harnessConfig',
  { scope: 'file' },
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  async ({}, { onCleanup }): Promise<Partial<Config>> => {
    roots = await mkdtemp(join(tmpdir(), 'bm-routes-'));
    onCleanup(() => rm(roots, { recursive: true, force: true }));
    await writeFile(join(roots, 'mock.json'), '{"from":"file"}');
    return {
      tools: ['core', 'network'],
      // A loopback alias stands in for a host the policy blocks (no traffic leaves loopback).
      blockedAddresses: ['127.0.0.2/32'],
      uploadRoots: [roots],
    };
  },
);

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});
// Each test starts with no routes, whatever the one before it left.
beforeEach(async () => {
  await h.ok('browser_route', { sessionId: s.sessionId, action: 'remove' });
});

interface RouteInfo {
  routeId: string;
  hits: number;
  action: string;
}
const route = (args: Record<string, unknown>) =>
  h.ok<{ route?: RouteInfo; routes?: RouteInfo[]; removed?: number }>('browser_route', {
    sessionId: s.sessionId,
    ...args,
  });

/** What a fetch from the page gets back: status and body text, or the network error. */
function fetchFromPage(
  pageId: string,
  url: string,
): Promise<{ status?: number; body?: string; error?: string }> {
  return h.mesh.runOnPage(s.sessionId, pageId, 'probe', ({ page }) =>
    page.page.evaluate(async (target) => {
      try {
        const response = await fetch(target);
        return { status: response.status, body: await response.text() };
      } catch (error) {
        return { error: String(error) };
      }
    }, url),
  );
}

describe('browser_route', () => {
  test('fulfils on every page and popup across navigations, counts hits, and is removed', async () => {
    const added = await route({
      action: 'add',
      url: '**/api/data',
      status: 201,
      body: '{"mocked":true}',
      contentType: 'application/json',
    });
    expect(added.route).toMatchObject({
      routeId: expect.stringMatching(/^r\d+$/),
      action: 'fulfill',
      hits: 0,
    });
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    expect(await fetchFromPage(s.pageId, '/api/data')).toEqual({ status: 201, body: '{"mocked":true}' });
    await h.ok('browser_navigate', { ...s, url: site.url('/large') });
    expect((await fetchFromPage(s.pageId, '/api/data')).body).toBe('{"mocked":true}');
    const other = await h.ok<{ page: { pageId: string } }>('browser_page_create', { sessionId: s.sessionId });
    await h.ok('browser_navigate', { sessionId: s.sessionId, pageId: other.page.pageId, url: site.url('/') });
    expect((await fetchFromPage(other.page.pageId, '/api/data')).status).toBe(201);
    expect((await route({})).routes).toEqual([
      expect.objectContaining({ routeId: added.route?.routeId, hits: 3 }),
    ]);
    expect((await route({ action: 'remove', routeId: added.route?.routeId })).removed).toBe(1);
    expect(JSON.parse((await fetchFromPage(s.pageId, '/api/data')).body ?? '{}')).toMatchObject({ ok: true });
  });

  test('aborts, filters by method, fulfils from a file, and continues with changed headers', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    site.route('/echo-header', (req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(String(req.headers['x-mesh-test'] ?? 'none'));
    });
    await route({
      action: 'add',
      url: /\/api\/data\?x=1$/.toString(),
      method: 'GET',
      abort: 'connectionrefused',
    });
    await route({ action: 'add', url: '**/from-file', path: join(roots, 'mock.json') });
    await route({ action: 'add', url: '**/echo-header', headers: { 'x-mesh-test': 'yes' } });
    expect((await fetchFromPage(s.pageId, '/api/data?x=1')).error).toMatch(/TypeError/);
    expect((await fetchFromPage(s.pageId, '/from-file')).body).toBe('{"from":"file"}');
    expect((await fetchFromPage(s.pageId, '/echo-header')).body).toBe('yes');
    expect((await route({ action: 'remove' })).removed).toBe(3);
    expect((await fetchFromPage(s.pageId, '/echo-header')).body).toBe('none');
  });

  test('fulfils a content type without a body (an empty typed response), not a silent continue', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    const added = await route({ action: 'add', url: '**/typed-empty', contentType: 'application/x-mesh' });
    expect(added.route?.action).toBe('fulfill');
    const seen = await h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', ({ page }) =>
      page.page.evaluate(async (url) => {
        const response = await fetch(url);
        return { type: response.headers.get('content-type'), body: await response.text() };
      }, site.url('/typed-empty')),
    );
    expect(seen).toEqual({ type: 'application/x-mesh', body: '' });
    expect((await route({ action: 'remove', routeId: added.route?.routeId })).removed).toBe(1);
  });

  test('never answers for a blocked origin, and refuses a blocked host, oversize bodies and bad input', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    const blockedUrl = `http://127.0.0.2:${new URL(site.origin).port}/api/data`;
    const refused = await h.err('browser_route', {
      sessionId: s.sessionId,
      action: 'add',
      url: blockedUrl,
      body: 'x',
    });
    expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'url' } });
    // A catch-all route still cannot fulfil a request to the blocked alias: the policy comes first.
    await route({ action: 'add', url: '**/*', body: 'mocked everywhere' });
    expect((await fetchFromPage(s.pageId, blockedUrl)).error).toMatch(/TypeError/);
    expect((await fetchFromPage(s.pageId, '/api/data')).body).toBe('mocked everywhere');
    await route({ action: 'remove' });
    const huge = 'x'.repeat(5 * 1024 * 1024 + 1);
    const oversize = await h.err('browser_route', {
      sessionId: s.sessionId,
      action: 'add',
      url: '**/big',
      body: huge,
    });
    expect(oversize.code).toBe('LIMIT_EXCEEDED');
    for (const bad of [
      { action: 'add' },
      { action: 'add', url: '/(/', body: 'x' },
      { action: 'add', url: '**/x', body: 'x', abort: 'failed' },
      { action: 'add', url: '**/x', path: '/etc/passwd' },
      { action: 'remove', routeId: 'r999' },
    ]) {
      const error = await h.err('browser_route', { sessionId: s.sessionId, ...bad });
      expect(error.code, JSON.stringify(bad)).toBe('INVALID_ARGUMENT');
    }
    expect((await route({})).routes).toEqual([]);
  });
});
