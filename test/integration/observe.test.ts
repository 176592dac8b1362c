import { afterAll, beforeAll } from 'vitest';
import { describe, expect, test } from './support/fixtures.js';
import { McpHarness } from '../helpers/harness.js';

interface ObservedEvent {
  id: number;
  time: string;
  level?: string;
  name?: string;
  text?: string;
  textTruncated?: boolean;
  line?: number;
  column?: number;
  stack?: string;
  requestId?: string;
  method?: string;
  url?: string;
  resourceType?: string;
  status?: number;
  durationMs?: number;
  failure?: string;
}

interface Observed {
  source: string;
  events: ObservedEvent[];
  nextCursor: number;
  hasMore: boolean;
  gap: boolean;
  droppedCount: number;
  truncated: boolean;
}

type Address = { sessionId: string; pageId: string };

function observe(harness: McpHarness, at: Address, args: Record<string, unknown>): Promise<Observed> {
  return harness.ok<Observed>('browser_observe', { ...at, ...args });
}

/** Re-reads until the condition holds: page events arrive asynchronously after load. */
async function observeUntil(
  harness: McpHarness,
  at: Address,
  args: Record<string, unknown>,
  done: (read: Observed) => boolean,
  timeoutMs = 15_000,
): Promise<Observed> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const read = await observe(harness, at, args);
    if (done(read) || Date.now() > deadline) return read;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('browser_observe', () => {
  let page: Address;
  test.beforeAll(async ({ site, harness: h }) => {
    page = await h.session({ name: 'observer' });
    await h.ok('browser_navigate', { ...page, url: site.url('/console') });
  });

  test('reads console levels as metadata by default, and redacted text on request', async ({
    site,
    harness: h,
  }) => {
    const meta = await observeUntil(h, page, { source: 'console' }, (r) => r.events.length >= 6);
    expect(meta.source).toBe('console');
    expect(meta.events.map((e) => e.level)).toEqual(['log', 'info', 'warning', 'error', 'debug', 'log']);
    expect(meta.events.every((e) => e.text === undefined)).toBe(true);
    expect(meta.events[0]?.url).toBe(site.url('/console'));

    const withText = await observe(h, page, { source: 'console', includeText: true });
    expect(withText.events.map((e) => e.text)).toContain('fixture warning message');
    expect(withText.events.map((e) => e.text)).toContain('calling api with token=REDACTED');
    expect(JSON.stringify(withText)).not.toContain('abc123secret');
  });

  test('reads thrown errors and unhandled rejections as pageError, with where they were thrown', async ({
    site,
    harness: h,
  }) => {
    const read = await observeUntil(
      h,
      page,
      { source: 'pageError', includeText: true },
      (r) => r.events.length >= 2,
    );
    expect(read.events.map((e) => e.text).sort()).toEqual([
      'Boom from fixture',
      'Unhandled rejection from fixture',
    ]);
    expect(read.events.every((e) => e.name === 'Error')).toBe(true);
    // A page error names the script URL, line, column and a bounded stack of `at fn (url:line:col)` frames.
    for (const event of read.events) {
      expect(event.url).toBe(site.url('/console'));
      expect(event.line).toBeGreaterThan(0);
      expect(event.column).toBeGreaterThan(0);
      expect(event.stack).toMatch(/^at .*\(http:\/\/127\.0\.0\.1:\d+\/console:\d+:\d+\)/);
      expect(event.stack?.split('\n').length).toBeLessThanOrEqual(8);
      expect(event.stack).not.toContain('Boom');
    }
    const meta = await observe(h, page, { source: 'pageError' });
    expect(meta.events.every((e) => e.text === undefined && e.name === 'Error')).toBe(true);
    expect(meta.events.every((e) => e.stack === undefined && e.line !== undefined)).toBe(true);
  });

  test('pages with cursors that never consume, and refuses cursors from the future', async ({
    harness: h,
  }) => {
    const first = await observe(h, page, { source: 'console', limit: 2 });
    expect(first.events.map((e) => e.id)).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    const again = await observe(h, page, { source: 'console', limit: 2 });
    expect(again.events).toEqual(first.events);
    const next = await observe(h, page, { source: 'console', sinceEventId: first.nextCursor, limit: 100 });
    expect(next.events[0]?.id).toBeGreaterThan(first.nextCursor);
    expect(next.hasMore).toBe(false);
    const tail = await observe(h, page, { source: 'console', sinceEventId: next.nextCursor });
    expect(tail.events).toEqual([]);

    expect(
      (await h.err('browser_observe', { ...page, source: 'console', sinceEventId: 1_000_000 })).code,
    ).toBe('CURSOR_INVALID');
    const tooMany = await h.err('browser_observe', { ...page, source: 'console', limit: 101 });
    expect(tooMany).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'limit' } });
  });

  test('correlates network metadata: statuses, redirects, redacted URLs; transport failures apart', async ({
    site,
    harness: h,
  }) => {
    const at = await h.session({ name: 'network' });
    await h.ok('browser_navigate', { ...at, url: site.url('/network') });
    const failed = await observeUntil(h, at, { source: 'requestFailed' }, (r) => r.events.length >= 1);
    const network = await observeUntil(h, at, { source: 'network' }, (r) => r.events.length >= 7);
    const byUrl = (suffix: string) => network.events.filter((e) => e.url === site.url(suffix));

    expect(byUrl('/network')[0]).toMatchObject({ method: 'GET', status: 200, resourceType: 'document' });
    expect(byUrl('/status/404')[0]).toMatchObject({ status: 404, resourceType: 'fetch' });
    expect(byUrl('/status/500')[0]).toMatchObject({ status: 500 });
    expect(byUrl('/redirect?to=/api/data')[0]?.status).toBe(302);
    expect(byUrl('/api/data').length).toBeGreaterThanOrEqual(2);
    expect(byUrl('/api/data?token=REDACTED&page=2')[0]?.status).toBe(200);
    expect(
      network.events.every((e) => typeof e.requestId === 'string' && typeof e.durationMs === 'number'),
    ).toBe(true);
    expect(JSON.stringify(network)).not.toContain('supersecret');
    expect(network.events.some((e) => e.failure !== undefined)).toBe(false);

    expect(failed.events).toHaveLength(1);
    expect(failed.events[0]).toMatchObject({
      url: site.refusedUrl,
      // Loopback goes through the URL guard in every mode: Chromium names a connection the
      // guard could not make by its SOCKS error.
      failure: 'ERR_SOCKS_CONNECTION_FAILED',
      method: 'GET',
    });
    expect(failed.events[0]?.status).toBeUndefined();

    const refused = await h.err('browser_observe', { ...at, source: 'network', includeText: true });
    expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'includeText' } });
    await h.ok('browser_session_close', { sessionId: at.sessionId });
  });

  test('leaves data: and blob: URLs out, and keeps each page its own buffer', async ({
    site,
    harness: h,
  }) => {
    site.route('/observe/inline', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>inline</title><script>
        fetch('data:text/plain,hi');
        fetch(URL.createObjectURL(new Blob(['x']))).then(() => console.log('inline done'));
      </script>`);
    });
    const at = await h.session({ name: 'inline' });
    await h.ok('browser_navigate', { ...at, url: site.url('/observe/inline') });
    await observeUntil(h, at, { source: 'console' }, (r) => r.events.length >= 1);
    const network = await observe(h, at, { source: 'network' });
    expect(network.events.map((e) => e.url)).toEqual([site.url('/observe/inline')]);

    const { page: other } = await h.ok<{ page: { pageId: string } }>('browser_page_create', {
      sessionId: at.sessionId,
    });
    const empty = await observe(h, { sessionId: at.sessionId, pageId: other.pageId }, { source: 'console' });
    expect(empty).toMatchObject({ events: [], nextCursor: 0, gap: false, droppedCount: 0 });
    const crossed = await h.err('browser_observe', {
      sessionId: page.sessionId,
      pageId: other.pageId,
      source: 'console',
    });
    expect(crossed.code).toBe('PAGE_NOT_FOUND');
    await h.ok('browser_session_close', { sessionId: at.sessionId });
  });
});

describe('browser_observe under tight limits', () => {
  let tight: McpHarness;
  beforeAll(async () => {
    tight = await McpHarness.start({
      observabilityEvents: 5,
      observabilityStringChars: 40,
      observabilityResponseBytes: 1024,
    });
  });
  afterAll(async () => {
    await tight?.close();
  });

  test('reports overflow with gap and droppedCount instead of a silent "nothing happened"', async ({
    site,
  }) => {
    const at = await tight.session();
    await tight.ok('browser_navigate', { ...at, url: site.url('/console') });
    const errors = await observeUntil(tight, at, { source: 'pageError' }, (r) => r.events.length >= 2);
    expect(errors.events).toHaveLength(2);
    const consoleRead = await observe(tight, at, { source: 'console' });
    // 6 console messages and 2 page errors through a 5-event buffer: the oldest console lines are gone.
    expect(consoleRead).toMatchObject({ gap: true });
    expect(consoleRead.droppedCount).toBeGreaterThanOrEqual(3);
    expect(consoleRead.events.length + consoleRead.droppedCount).toBe(6);
    const caughtUp = await observe(tight, at, { source: 'console', sinceEventId: consoleRead.nextCursor });
    expect(caughtUp).toMatchObject({ events: [], gap: false });
  });

  test('bounds each string and the whole response while events and cursors still return', async ({
    site,
  }) => {
    site.route('/observe/long', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>long</title><script>
        for (let i = 0; i < 4; i++) console.log('line ' + i + ' ' + 'x'.repeat(500) + ' password=hunter2');
      </script>`);
    });
    const at = await tight.session();
    await tight.ok('browser_navigate', { ...at, url: site.url('/observe/long') });
    const read = await observeUntil(
      tight,
      at,
      { source: 'console', includeText: true },
      (r) => r.events.length >= 4,
    );
    expect(read.events).toHaveLength(4);
    for (const event of read.events) {
      expect(Array.from(event.text ?? '').length).toBeLessThanOrEqual(40);
      expect(event.textTruncated).toBe(true);
    }
    const result = await tight.call('browser_observe', { ...at, source: 'console', includeText: true });
    expect(Buffer.byteLength(JSON.stringify(result.structuredContent))).toBeLessThanOrEqual(1024);
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });
});
