import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';
import { LONG } from './support/schema-arbitrary.js';

/**
 * A bounded soak: sessions are created, used (navigate, snapshot, a browser_run script, a
 * failing call) and closed, cycle after cycle. Afterwards the server's heap and its open handles
 * must be back at their baseline, taken after a warm-up cycle: what a session holds is released
 * when it closes, nothing accumulates per call.
 *
 * Bounded (CI): 5 cycles of 2 sessions. `npm run test:stress`: 150 cycles.
 */

const CYCLES = LONG ? 150 : 5;
/** Heap growth tolerated over the baseline: allocator noise, lazily compiled code, caches that fill once. */
const HEAP_SLACK_BYTES = 24 * 1024 * 1024;
const HANDLE_SLACK = 3;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let site: FixtureServer;
let h: McpHarness;

beforeAll(async () => {
  site = await startFixtureServer();
  h = await McpHarness.start({ timeoutMs: 30_000 });
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

async function cycle(): Promise<void> {
  const sessions = await Promise.all([h.session(), h.session()]);
  await Promise.all(
    sessions.map(async (s) => {
      await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
      await h.ok('browser_snapshot', s);
      await h.ok('browser_run', { ...s, code: 'return await page.title()' });
      await h.err('browser_click', { ...s, ref: '@e99999' });
    }),
  );
  await Promise.all(sessions.map((s) => h.ok('browser_session_close', { sessionId: s.sessionId })));
}

/** Heap after full collections, and the count of open handles (sockets, timers, processes…). */
async function measure(): Promise<{ heap: number; handles: number }> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { heap: process.memoryUsage().heapUsed, handles: process.getActiveResourcesInfo().length };
}

describe('soak', () => {
  it(
    `${CYCLES} create/use/close cycles: heap and open handles back to baseline`,
    async () => {
      await cycle();
      const baseline = await measure();
      for (let i = 0; i < CYCLES; i++) await cycle();
      const after = await measure();
      const info = await h.ok<{ sessions: { live: number } }>('browser_runtime_info');
      process.stderr.write(
        `soak: ${CYCLES} cycles, heap ${mb(baseline.heap)} → ${mb(after.heap)} MB, handles ${baseline.handles} → ${after.handles}\n`,
      );
      expect(info.sessions.live).toBe(0);
      expect(after.heap - baseline.heap).toBeLessThan(HEAP_SLACK_BYTES);
      expect(after.handles - baseline.handles).toBeLessThanOrEqual(HANDLE_SLACK);
    },
    LONG ? 3_600_000 : 120_000,
  );
});

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
