import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from './support/fixtures.js';
import { textOf } from '../helpers/harness.js';
import { waitFor } from './support/wait.js';

/** Chromium browser processes (not renderers or helpers) started by this test worker. */
function launchedBrowsers(): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const match = /^\d+ \((.*)\) \S (\d+)/.exec(stat);
      if (!match || Number(match[2]) !== process.pid || !/chrom/i.test(match[1] ?? '')) continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!args.some((arg) => arg.startsWith('--type='))) count++;
    } catch {
      // The process ended while we looked.
    }
  }
  return count;
}

/** Slack for the answer to travel back once the deadline fired (event loop, MCP round trip). */
const ANSWER_SLACK_MS = 3_000;

describe('session creation keeps its deadline', () => {
  test('twenty creates at once on a cold runtime: each answers by its deadline, one browser is launched', async ({
    harness: h,
  }) => {
    const timeoutMs = 4_000;
    const started = Date.now();
    const calls = Array.from({ length: 20 }, async () => {
      const result = await h.call('browser_session_create', { timeoutMs });
      return { result, elapsedMs: Date.now() - started };
    });
    const answers = await Promise.all(calls);
    const created: string[] = [];
    for (const { result, elapsedMs } of answers) {
      expect(elapsedMs).toBeLessThanOrEqual(timeoutMs + ANSWER_SLACK_MS);
      if (result.isError) {
        expect((JSON.parse(textOf(result)) as { error: { code: string } }).error.code).toBe(
          'OPERATION_TIMEOUT',
        );
      } else {
        created.push((result.structuredContent as { session: { sessionId: string } }).session.sessionId);
      }
    }
    expect(launchedBrowsers()).toBe(1);
    // A create answered with a timeout leaves no live session behind once its late parts arrive.
    await waitFor(
      () => h.mesh.runtimeInfo().sessions.live === created.length,
      10_000,
      'timed-out creates to give back their slots',
    );
    for (const sessionId of created) await h.ok('browser_session_close', { sessionId });
  });

  test('a create whose deadline is too short for its context answers OPERATION_TIMEOUT, and leaks nothing', async ({
    harness: h,
  }) => {
    const warm = await h.session({ timeoutMs: 45_000 }); // the browser runs: only context and page remain
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => h.call('browser_session_create', { timeoutMs: 5 })),
    );
    expect(Date.now() - started).toBeLessThanOrEqual(5 + ANSWER_SLACK_MS);
    const codes = answers.map((result) =>
      result.isError ? (JSON.parse(textOf(result)) as { error: { code: string } }).error.code : 'created',
    );
    expect(codes).toEqual(Array.from({ length: 10 }, () => 'OPERATION_TIMEOUT'));
    await waitFor(() => h.mesh.runtimeInfo().sessions.live === 1, 10_000, 'only the warm session to be live');
    await h.ok('browser_session_close', { sessionId: warm.sessionId });
    // The steps' own bounds (45 s warm create, 10 s wait, the close) add up to more than the default
    // 60 s test timeout: a slow warm create on a loaded machine must fail on its own bound, not the test's.
  }, 90_000);
});
