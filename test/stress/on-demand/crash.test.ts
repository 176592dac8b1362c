import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.mjs';
import { McpHarness } from '../../helpers/harness.js';

/**
 * Chromium killed mid-operation, many times (on demand: `npm run test:stress`). Each round
 * starts a navigation the fixture never answers, kills every Chromium process this test started once
 * the request has arrived, and checks that the in-flight call ends with BROWSER_DISCONNECTED
 * promptly and that a new session navigates soon after being asked.
 */

const ROUNDS = 10;
/** "Promptly": the in-flight call ends this soon after the kill. */
const IN_FLIGHT_BOUND_MS = 2_000;
/** A new session is created and has navigated this soon after being asked: about a second, the recovery goal. */
const RECOVERY_BOUND_MS = 2_000;

let site: FixtureServer;
let h: McpHarness;

beforeAll(async () => {
  site = await startFixtureServer();
  h = await McpHarness.start({ timeoutMs: 60_000 });
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

function chromiumChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm !== undefined && /chrom/i.test(comm))
    .map(([pid]) => Number(pid));
}

/** Resolves once the provider reports a browser ready that was not among `before`'s processes. */
async function replacementUp(before: number[]): Promise<void> {
  for (;;) {
    const up = h.mesh.runtimeInfo().browser.state === 'ready';
    if (up && chromiumChildren().some((pid) => !before.includes(pid))) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Chromium killed mid-operation', () => {
  it(`${ROUNDS} rounds: in-flight calls end BROWSER_DISCONNECTED promptly, new sessions work`, async () => {
    const inFlightMs: number[] = [];
    const recoveryMs: number[] = [];
    const split: string[] = [];
    const relaunchedMs: number[] = [];
    const laterMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const s = await h.session();
      let arrived: () => void = () => undefined;
      const requested = new Promise<void>((resolve) => (arrived = resolve));
      site.route('/hang', () => arrived()); // never answers
      const inFlight = h.err('browser_navigate', { ...s, url: site.url('/hang'), timeoutMs: 60_000 });
      await requested;
      const killedAt = Date.now();
      const before = chromiumChildren();
      for (const pid of before) process.kill(pid, 'SIGKILL');
      const relaunched = replacementUp(before).then(() => relaunchedMs.push(Date.now() - killedAt));
      const error = await inFlight;
      inFlightMs.push(Date.now() - killedAt);
      expect(error.code).toBe('BROWSER_DISCONNECTED');

      const askedAt = Date.now();
      const stateAtAsk = h.mesh.runtimeInfo().browser.state;
      const fresh = await h.session();
      const createdMs = Date.now() - askedAt;
      const nav = await h.ok<{ title: string }>('browser_navigate', {
        ...fresh,
        url: site.url('/title?t=Back'),
      });
      recoveryMs.push(Date.now() - askedAt);
      split.push(`${stateAtAsk}:${createdMs}+${Date.now() - askedAt - createdMs}`);
      expect(nav.title).toBe('Back');
      await relaunched;
      // Asked once the replacement is up (a client that comes back a moment after the crash).
      const laterAt = Date.now();
      const later = await h.session();
      await h.ok('browser_navigate', { ...later, url: site.url('/title?t=Later') });
      laterMs.push(Date.now() - laterAt);
      await h.ok('browser_session_close', { sessionId: later.sessionId });
      await h.ok('browser_session_close', { sessionId: fresh.sessionId });
      await h.ok('browser_session_close', { sessionId: s.sessionId });
    }
    process.stderr.write(
      `crash: in-flight end ms ${inFlightMs.join(',')}; recovery ms ${recoveryMs.join(',')} (state at ask: create+navigate ${split.join(' ')}); kill → replacement up ms ${relaunchedMs.join(',')}; asked once it is up ms ${laterMs.join(',')}\n`,
    );
    expect(Math.max(...inFlightMs)).toBeLessThan(IN_FLIGHT_BOUND_MS);
    expect(Math.max(...recoveryMs)).toBeLessThan(RECOVERY_BOUND_MS);
  }, 600_000);
});
