import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';
import { LONG } from './support/schema-arbitrary.js';

/**
 * Many sessions, many interleaved operations (issue 15): every session's calls are issued at once,
 * all sessions together, without waiting for each other. Each session navigates to pages tagged with
 * its own name and step, and reads back its URL between navigations. Ordering holds when every read
 * shows the navigation issued just before it in the same session; isolation holds when no session
 * ever sees another's tag or cookie.
 *
 * Bounded (CI): 3 sessions × 30 operations. `npm run test:stress`: 20 × 500.
 */

const SESSIONS = LONG ? 20 : 3;
const OPERATIONS = LONG ? 500 : 30;

let site: FixtureServer;
let h: McpHarness;

beforeAll(async () => {
  site = await startFixtureServer();
  h = await McpHarness.start({ maxSessions: SESSIONS + 1, timeoutMs: 120_000 });
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

/** One session's operations, all issued without waiting; resolves with the violations seen. */
async function drive(index: number, s: { sessionId: string; pageId: string }): Promise<Violation[]> {
  const tag = `s${index}`;
  await h.ok('browser_navigate', { ...s, url: site.url(`/cookie-set?name=c_${tag}&value=1`) });
  const calls: Array<Promise<Violation | undefined>> = [];
  let lastUrl = '';
  for (let step = 0; step < OPERATIONS; step++) {
    if (step % 2 === 0) {
      lastUrl = site.url(`/title?t=${tag}-${step}`);
      calls.push(h.call('browser_navigate', { ...s, url: lastUrl }).then(() => undefined));
      continue;
    }
    const expected = lastUrl;
    calls.push(
      h.ok<{ url: string }>('browser_get_url', s).then(
        ({ url }) => {
          if (!url.includes(`t=${tag}-`)) return { session: index, step, kind: 'isolation', detail: url };
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
        `isolation: ${SESSIONS * OPERATIONS} operations in ${Date.now() - started} ms, ${violations.length} violations\n`,
      );
      expect(violations).toEqual([]);
    },
    LONG ? 3_600_000 : 120_000,
  );
});
