import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf, type ErrorPayload } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

/**
 * browser_run's sandbox through MCP on real Chromium: errors with positions, output bounds, escape
 * attempts contained, cancellation, parallel sessions. After every hostile script the server and
 * the session must still answer a typed tool call.
 */

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
});

/**
 * No test here is about time: a roomy deadline, because the file's first script also starts a sandbox
 * worker (QuickJS compiled in a thread), which took over 20 s on a loaded CI machine.
 */
const SCRIPT_TIMEOUT_MS = 45_000;
const run = <T>(
  code: string,
  timeoutMs = SCRIPT_TIMEOUT_MS,
): Promise<{ value: T; valueTruncated?: boolean; logs: string[]; logsTruncated?: boolean }> =>
  h.ok('browser_run', { ...s, code, timeoutMs });
const fail = (code: string, timeoutMs = SCRIPT_TIMEOUT_MS): Promise<ErrorPayload> =>
  h.err('browser_run', { ...s, code, timeoutMs });

async function stillHealthy(): Promise<void> {
  expect(await h.ok('browser_get_url', s)).toMatchObject({ url: site.url('/quiet') });
  expect((await run<number>('return 1 + 1')).value).toBe(2);
}

describe('script errors', () => {
  test('reports syntax errors with their position and never runs anything', async () => {
    const error = await fail('const a = 1;\nreturn (a +;');
    expect(error.code).toBe('SCRIPT_ERROR');
    expect(error.details).toMatchObject({ kind: 'syntax', line: 2, operations: 0 });
    expect(typeof error.details?.column).toBe('number');
  });

  test('reports runtime errors with the line and the last page step', async () => {
    const error = await fail(`await page.title();\nconst x = null;\nreturn x.y;`);
    expect(error.code).toBe('SCRIPT_ERROR');
    expect(error.details).toMatchObject({ kind: 'runtime', line: 3, operations: 1 });
  });
});

describe('output bounds', () => {
  test('cuts a huge return value and says so', async () => {
    const out = await run<string>(`return 'x'.repeat(5_000_000);`);
    expect(out.valueTruncated).toBe(true);
    expect(out.value.length).toBeLessThanOrEqual(16 * 1024);
  });

  test('keeps at most 100 log lines of at most ~1000 chars', async () => {
    const out = await run<null>(
      `for (let i = 0; i < 500; i++) console.log('line', i, 'y'.repeat(5000)); return null;`,
    );
    expect(out.logs).toHaveLength(100);
    expect(out.logsTruncated).toBe(true);
    expect(Math.max(...out.logs.map((l) => l.length))).toBeLessThanOrEqual(1001);
  });

  test('handles deeply recursive JSON without hurting the host', async () => {
    const result = await h.call('browser_run', {
      ...s,
      code: `let o = {}; for (let i = 0; i < 200000; i++) o = { o }; return o;`,
      timeoutMs: 20_000,
    });
    if (result.isError)
      expect((JSON.parse(textOf(result)) as { error: ErrorPayload }).error.code).toBe('SCRIPT_ERROR');
    else expect((result.structuredContent as { valueTruncated?: boolean }).valueTruncated).toBe(true);
    await stillHealthy();
  });
});

describe('escapes are contained', () => {
  test('has no host globals, even through constructor.constructor', async () => {
    const out = await run<Record<string, unknown>>(`
      const F = (function () {}).constructor.constructor;
      const names = Object.getOwnPropertyNames(globalThis);
      return {
        process: F('return typeof process')(),
        require: typeof require, fetch: typeof fetch, timers: typeof setTimeout, importer: typeof importScripts,
        host: names.filter((n) => /^(process|require|module|fetch|setTimeout|setInterval|Buffer|WebAssembly|global|std|os)$|host/i.test(n)),
      };
    `);
    expect(out.value).toEqual({
      process: 'undefined',
      require: 'undefined',
      fetch: 'undefined',
      timers: 'undefined',
      importer: 'undefined',
      host: [],
    });
    await stillHealthy();
  });

  test('cannot pollute the host prototypes', async () => {
    await run(`
      Object.prototype.polluted = 'yes';
      Array.prototype.polluted = 'yes';
      JSON.parse = () => ({ hacked: true });
      try { await page.title.call({ __proto__: { polluted: 'yes' } }); } catch (e) {}
      return JSON.parse('{"__proto__": {"polluted": "yes"}}');
    `);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse('{"a":1}')).toEqual({ a: 1 });
    // A fresh context per run: nothing carries over to the next script.
    expect((await run<unknown>('return ({}).polluted ?? null')).value).toBeNull();
    await stillHealthy();
  });

  test('stops infinite loops at the deadline', async () => {
    const error = await fail('while (true) {}', 3000);
    expect(error.code).toBe('SCRIPT_ERROR');
    expect(error.details?.kind).toBe('timeout');
    await stillHealthy();
  });

  test('stops memory bombs', async () => {
    const error = await fail(`const a = []; for (;;) a.push('x'.repeat(1 << 20) + a.length);`);
    expect(error.code).toBe('SCRIPT_ERROR');
    expect(error.details?.kind).toBe('memory');
    await stillHealthy();
  });
});

describe('cancellation and parallel sessions', () => {
  test('cancels a running script from the client and frees the session', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    // Started once the page has committed (its image is asked for), not when its request arrives:
    // a cancel between the two would rightly abort the navigation itself.
    site.route('/cancel-started', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<title>started</title><p>started</p><img src="/cancel-ping">');
    });
    site.route('/cancel-ping', (_req, res) => {
      started();
      res.writeHead(204).end();
    });
    const controller = new AbortController();
    const call = h.call(
      'browser_run',
      {
        ...s,
        code: `await page.goto('${site.url('/cancel-started')}'); for (;;) await page.waitForTimeout(200);`,
        timeoutMs: 60_000,
      },
      { signal: controller.signal },
    );
    await running;
    controller.abort();
    await expect(call).rejects.toThrow();
    // The queue slot is released only once the run has really ended.
    expect(await h.ok('browser_get_url', { ...s, timeoutMs: 15_000 })).toMatchObject({
      url: site.url('/cancel-started'),
    });
    await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
  });

  test('runs scripts in two sessions at once without interference', async () => {
    const a = await h.session();
    const b = await h.session();
    const script = (who: string): string => `
      await page.goto('${site.url('/shop/checkout')}');
      await page.getByLabel('Full name').fill('${who}');
      await page.getByLabel('City').fill('${who} town');
      await page.waitForTimeout(300);
      return { name: await page.inputValue('#fullName'), city: await page.inputValue('#city') };
    `;
    const [ra, rb] = await Promise.all([
      h.ok<{ value: unknown }>('browser_run', { ...a, code: script('Alice'), timeoutMs: 30_000 }),
      h.ok<{ value: unknown }>('browser_run', { ...b, code: script('Bob'), timeoutMs: 30_000 }),
    ]);
    expect(ra.value).toEqual({ name: 'Alice', city: 'Alice town' });
    expect(rb.value).toEqual({ name: 'Bob', city: 'Bob town' });
  });
});
