import { describe, expect, test } from './support/fixtures.js';

/**
 * Quiet-aware sleeps: waitForTimeout / wait {ms} end once the page has been quiet for 500 ms, never
 * later than asked. Bounds are conditions ("ended early", "lasted until the activity ended"), never
 * tight timings: the machine is shared.
 */

interface CodeOut<T> {
  value: T;
  durationMs: number;
}

describe('quiet-aware sleeps', () => {
  test('ends an 8 s sleep early on a quiet page', async ({ site, harness: h }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
    // Timed inside the script: the first run of a process also pays the sandbox worker's start-up.
    const out = await h.ok<CodeOut<number>>('browser_run', {
      ...s,
      code: 'const t = Date.now(); await page.waitForTimeout(8000); return Date.now() - t;',
      timeoutMs: 30_000,
    });
    expect(out.value).toBeGreaterThanOrEqual(490);
    expect(out.value).toBeLessThan(8000);
  });

  test('ends a batch sleep early too, and says it found the page quiet', async ({ site, harness: h }) => {
    const s = await h.session();
    const out = await h.ok<{ results: Array<{ quiet: boolean; elapsedMs: number }> }>('browser_run', {
      ...s,
      actions: [
        { action: 'goto', url: site.url('/quiet') },
        { action: 'wait', ms: 8000 },
      ],
      timeoutMs: 30_000,
    });
    expect(out.results[1]).toMatchObject({ quiet: true });
    expect(out.results[1]?.elapsedMs).toBeGreaterThanOrEqual(500);
    expect(out.results[1]?.elapsedMs).toBeLessThan(8000);
  });

  test('waits on a busy page until its activity has ended', async ({ site, harness: h }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/busy?ms=1500') });
    const out = await h.ok<CodeOut<{ status: string | null; ticks: number; sleptMs: number }>>(
      'browser_run',
      {
        ...s,
        code: `const t = Date.now();
        await page.waitForTimeout(15000);
        const sleptMs = Date.now() - t;
        return { status: await page.textContent('#busy-status'), ticks: await page.locator('#busy-log li').count(), sleptMs };`,
        timeoutMs: 30_000,
      },
    );
    // The page writes "idle after N requests" only when its 1.5 s of activity is over.
    expect(out.value.status).toMatch(/^idle after \d+ requests$/);
    expect(out.value.ticks).toBeGreaterThan(1);
    expect(out.value.sleptMs).toBeLessThan(15_000);
  });

  test('sleeps the full duration on a page that never goes quiet', async ({ site, harness: h }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/never-quiet') });
    const out = await h.ok<{ results: Array<{ quiet: boolean; elapsedMs: number }> }>('browser_run', {
      ...s,
      actions: [{ action: 'wait', ms: 2000 }],
      timeoutMs: 30_000,
    });
    expect(out.results[0]?.quiet).toBe(false);
    expect(out.results[0]?.elapsedMs).toBeGreaterThanOrEqual(1990);
  });
});
