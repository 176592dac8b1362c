import { execFileSync } from 'node:child_process';
import { describe, expect, test } from './support/fixtures.js';

/** Chromium processes started by this test worker (each test file runs in its own process). */
function chromiumChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm !== undefined && /chrom/i.test(comm))
    .map(([pid]) => Number(pid));
}

describe('Chromium dying', () => {
  test('marks live sessions failed, keeps the server alive, and launches a fresh browser for new sessions', async ({
    site,
    harness: h,
  }) => {
    const a = await h.session({ name: 'a' });
    const b = await h.session({ name: 'b' });
    await h.ok('browser_navigate', { ...a, url: site.url('/quiet') });
    const pids = chromiumChildren();
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');

    // Wait on the condition: both sessions reported failed.
    let states: string[] = [];
    const allFailed = (): boolean => states.length === 2 && states.every((state) => state === 'failed');
    for (let i = 0; i < 500 && !allFailed(); i++) {
      const list = await h.ok<{ sessions: Array<{ sessionId: string; state: string }> }>(
        'browser_session_list',
      );
      states = list.sessions
        .filter((s) => s.sessionId === a.sessionId || s.sessionId === b.sessionId)
        .map((s) => s.state);
      if (!allFailed()) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(states).toEqual(['failed', 'failed']);

    const refused = await h.err('browser_get_url', a);
    expect(refused.code).toBe('BROWSER_DISCONNECTED');
    const info = await h.ok<{ sessions: { failed: number } }>('browser_runtime_info');
    expect(info.sessions.failed).toBe(2);

    const fresh = await h.session({ name: 'fresh' });
    expect(
      (await h.ok<{ title: string }>('browser_navigate', { ...fresh, url: site.url('/title?t=Alive') }))
        .title,
    ).toBe('Alive');
    // The failed session is never recreated silently; closing it still succeeds.
    expect((await h.err('browser_get_url', a)).code).toBe('BROWSER_DISCONNECTED');
    expect((await h.ok<{ state: string }>('browser_session_close', { sessionId: a.sessionId })).state).toBe(
      'failed',
    );
  });
});
