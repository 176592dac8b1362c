import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpHarness, textOf } from '../helpers/harness.js';
import { LONG } from './support/schema-arbitrary.js';

/**
 * Many sessions, many interleaved operations: all sessions run together, each keeping up
 * to WINDOW calls in flight without waiting for their answers. Each session navigates to pages tagged with
 * its own name and step, and reads back its URL between navigations. Ordering holds when every read
 * shows the navigation issued just before it in the same session; isolation holds when no session
 * ever sees another's tag or cookie.
 *
 * Bounded (CI): 3 sessions × 30 operations. `npm run test:stress`: 20 × 500.
 */

const SESSIONS = LONG ? 20 : 3;
const OPERATIONS = LONG ? 500 : 30;
/** Each call's server deadline (queue wait included), and the client's wait a little beyond it. */
const DEADLINE_MS = LONG ? 300_000 : 120_000;
const CALL_TIMEOUT_MS = DEADLINE_MS + 30_000;

let site: FixtureServer;
let h: McpHarness;

beforeAll(async () => {
  site = await startFixtureServer();
  h = await McpHarness.start({ maxSessions: SESSIONS + 1, timeoutMs: DEADLINE_MS });
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

interface Violation {
  session: number;
  step: number;
  kind: 'order' | 'isolation' | 'error';
  detail: string;
}

/**
 * Calls in flight per session at once: enough that every session always has a queue interleaved
 * with every other session's, under the default per-session queue bound (64), and few enough that on
 * two shared cores each call is answered within its deadline however long the run.
 */
const WINDOW = 16;

/** Starts calls in program order, never more than WINDOW unsettled at once. */
function windowed(): <T>(call: () => Promise<T>) => Promise<{ answer: Promise<T> }> {
  const open = new Set<Promise<void>>();
  return async (call) => {
    while (open.size >= WINDOW) await Promise.race(open);
    const started = call();
    const done: Promise<void> = started.then(
      () => void open.delete(done),
      () => void open.delete(done),
    );
    open.add(done);
    // Wrapped: an async function returning the call's promise would wait for its answer.
    return { answer: started };
  };
}

/** A failed call is a violation too: a navigation that never happened would hide an ordering bug. */
function failure(index: number, step: number, result: CallToolResult): Violation | undefined {
  if (!result.isError) return undefined;
  let code = 'unparsed';
  try {
    code = (JSON.parse(textOf(result)) as { error: { code: string } }).error.code;
  } catch {
    // A result that is not a coded error is reported as such.
  }
  return { session: index, step, kind: 'error', detail: code };
}

/** One session's operations, issued without waiting for each other; resolves with the violations seen. */
async function drive(index: number, s: { sessionId: string; pageId: string }): Promise<Violation[]> {
  const tag = `s${index}`;
  await h.ok('browser_navigate', { ...s, url: site.url(`/cookie-set?name=c_${tag}&value=1`) });
  const issue = windowed();
  const calls: Array<Promise<Violation | undefined>> = [];
  let lastUrl = '';
  for (let step = 0; step < OPERATIONS; step++) {
    if (step % 2 === 0) {
      const url = site.url(`/title?t=${tag}-${step}`);
      lastUrl = url;
      const nav = await issue(() => h.call('browser_navigate', { ...s, url }, { timeout: CALL_TIMEOUT_MS }));
      calls.push(
        nav.answer.then(
          (result) => failure(index, step, result),
          (error: unknown) => ({ session: index, step, kind: 'error', detail: String(error) }),
        ),
      );
      continue;
    }
    const expected = lastUrl;
    const read = await issue(() => h.call('browser_get_url', s, { timeout: CALL_TIMEOUT_MS }));
    calls.push(
      read.answer.then(
        (result) => {
          const failed = failure(index, step, result);
          if (failed) return failed;
          const { url } = result.structuredContent as { url: string };
          // Another session's page is an isolation violation; any other page of its own, an ordering one.
          const owner = /(?:[?&]t=|name=c_)(s\d+)\b/.exec(url)?.[1];
          if (owner !== undefined && owner !== tag)
            return { session: index, step, kind: 'isolation', detail: url };
          if (url !== expected)
            return { session: index, step, kind: 'order', detail: `${url} != ${expected}` };
          return undefined;
        },
        (error: unknown) => ({ session: index, step, kind: 'error', detail: String(error) }),
      ),
    );
  }
  const seen = (await Promise.all(calls)).filter((v): v is Violation => v !== undefined);
  await h.ok('browser_navigate', { ...s, url: site.url('/echo-cookies') });
  const text = await h.ok<{ text: string }>('browser_visible_text', s);
  const cookies = [...text.text.matchAll(/c_s\d+/g)].map((m) => m[0]);
  if (cookies.join() !== `c_${tag}`)
    seen.push({ session: index, step: -1, kind: 'isolation', detail: `cookies ${cookies.join()}` });
  return seen;
}

describe('interleaved sessions', () => {
  it(
    `${SESSIONS} sessions × ${OPERATIONS} interleaved operations: 0 ordering or isolation violations`,
    async () => {
      const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => h.session()));
      const started = Date.now();
      const violations = (await Promise.all(sessions.map((s, i) => drive(i, s)))).flat();
      process.stderr.write(
        `isolation: ${SESSIONS * OPERATIONS} operations in ${Date.now() - started} ms, ${violations.length} violations ${JSON.stringify(countByKind(violations))}\n`,
      );
      expect(violations.slice(0, 20)).toEqual([]);
    },
    LONG ? 3_600_000 : 120_000,
  );
});

function countByKind(violations: Violation[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of violations)
    counts[`${v.kind}:${v.kind === 'error' ? v.detail : ''}`] =
      (counts[`${v.kind}:${v.kind === 'error' ? v.detail : ''}`] ?? 0) + 1;
  return counts;
}
