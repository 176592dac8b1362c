/**
 * Code mode's `human.request(reason, { timeoutMs })`: a browser_run script asks for a person and
 * waits inside its own run (which holds the session's queue). With the official MCP SDK client
 * declaring URL-mode elicitation, the client gets the take-over link; the test, as the person,
 * opens it in a real Chromium, signs in on the live image while the script waits, and hands back;
 * the script goes on with the signed-in page and returns `returned`, the client hears
 * `notifications/elicitation/complete`, and the password is in no result or log line. A request
 * nobody answers ends as `timeout` inside the script. Without elicitation the call fails at once
 * with NOT_SUPPORTED (nobody could be told), and bad arguments are INVALID_ARGUMENT; the session
 * works after each.
 */
import {
  connectAgent,
  describe,
  expect,
  expectNoPassword,
  logLines,
  newSession,
  test,
} from './support/human-agent.js';
import { LOGIN, personSignsIn } from './support/human.js';
import { waitFor } from './support/wait.js';

interface Failure {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

const failureOf = (result: { content: unknown }): Failure =>
  JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as Failure;

describe('human.request in a browser_run script', () => {
  test.beforeAll(({ site }) => {
    site.route('/human/login', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(LOGIN);
    });
  });

  test('with URL elicitation: the person signs in while the script waits, then it goes on', async ({
    humanServer,
    site,
    viewer,
  }) => {
    const agent = await connectAgent(humanServer.url, true);
    try {
      const s = await newSession(agent, site);
      const reason = 'Sign in for the script, please';
      const ran = agent.ok<{ value: { asked: Record<string, unknown>; heading: string } }>('browser_run', {
        ...s,
        timeoutMs: 170_000,
        code: `const asked = await human.request(${JSON.stringify(reason)}, { timeoutMs: 150000 });
          return { asked, heading: await page.locator('h1').textContent() };`,
      });
      await waitFor(async () => agent.elicitations.length === 1, 30_000, 'the URL elicitation');
      const elicited = agent.elicitations[0]!;
      expect(elicited).toMatchObject({ mode: 'url', message: reason });
      expect(elicited.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/#handoff=/);

      // The person finds the session marked "needs you" and drives the page the script holds.
      await personSignsIn(viewer, elicited.url!, reason);
      const { value } = await ran;
      expect(value.asked).toMatchObject({ status: 'returned', title: 'Home' });
      expect(value.asked.url).toContain('/human/login');
      expect(Object.keys(value.asked).sort()).toEqual(['status', 'title', 'url', 'waitedMs']);
      expect(value.heading).toBe('Signed in');
      await waitFor(async () => agent.completed.length === 1, 10_000, 'elicitation/complete');
      expect(agent.completed).toEqual([elicited.elicitationId]);

      // Nobody comes: the request ends as timeout inside the script, which still returns.
      const timedOut = await agent.ok<{ value: [string, string] }>('browser_run', {
        ...s,
        timeoutMs: 60_000,
        code: `const r = await human.request('nobody comes', { timeoutMs: 300 });
          return [r.status, await page.title()];`,
      });
      expect(timedOut.value).toEqual(['timeout', 'Home']);
      await waitFor(async () => agent.completed.length === 2, 10_000, 'the second completion');

      expectNoPassword(agent.results);
      expectNoPassword(logLines);
    } finally {
      await agent.client.close();
    }
  });

  test('without elicitation it fails at once, naming browser_request_human; bad arguments', async ({
    humanServer,
    site,
  }) => {
    const agent = await connectAgent(humanServer.url, false);
    try {
      const s = await newSession(agent, site);
      const refused = await agent.call('browser_run', {
        ...s,
        code: `await human.request('Sign in, please'); return 'unreachable';`,
      });
      expect(refused.isError).toBe(true);
      const { error } = failureOf(refused);
      expect(error.code).toBe('NOT_SUPPORTED');
      expect(error.message).toContain('browser_request_human');
      expect(error.details).toMatchObject({ hostCode: 'NOT_SUPPORTED', stepOp: 'humanRequest' });
      // Nothing was left waiting: the session is not marked, and the next call runs.
      const nothing = await agent.call('browser_request_human', { sessionId: s.sessionId, wait: true });
      expect(failureOf(nothing).error.code).toBe('INVALID_ARGUMENT');

      const caught = await agent.ok<{ value: string[] }>('browser_run', {
        ...s,
        code: `const out = [];
          for (const args of [[''], [42], ['ok', { timeoutMs: -5 }], ['ok', { when: 'later' }]]) {
            try { await human.request(...args); out.push('no error'); } catch (e) { out.push(e.name + ':' + e.code); }
          }
          return out;`,
      });
      expect(caught.value).toEqual([
        'TypeError:INVALID_ARGUMENT',
        'TypeError:INVALID_ARGUMENT',
        'TypeError:INVALID_ARGUMENT',
        'TypeError:INVALID_ARGUMENT',
      ]);
      // Playwright's page.pause() points at human.request.
      const paused = await agent.ok<{ value: string }>('browser_run', {
        ...s,
        code: `try { await page.pause(); return 'no error'; } catch (e) { return e.message; }`,
      });
      expect(paused.value).toContain('human.request');
      expect((await agent.ok<{ title: string }>('browser_get_title', s)).title).toBe('Sign in');
    } finally {
      await agent.client.close();
    }
  });
});
