/**
 * browser_request_human: an agent asks for a person. Over MCP with the official SDK client that
 * declares URL-mode elicitation, the client gets `elicitation/create` with `mode: "url"`; the test,
 * as the person, opens that URL in a real Chromium (the take-over view), fills a login form there
 * and presses "Hand back"; the call returns `returned`, the client gets
 * `notifications/elicitation/complete`, and the agent's next snapshot shows the signed-in page. The
 * typed password is in no result, log line or trace. Without elicitation the first call gives the
 * URL at once (`waiting`) and a second call waits. Timeout and cancel leave the session working; a
 * second request while one waits is HUMAN_REQUEST_PENDING.
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
import { waitFor } from './support/wait.js';
import { LOGIN, personSignsIn } from './support/human.js';
import { readZip } from './support/zip.js';
import { readSessionFile } from './support/session-files.js';

describe('browser_request_human', () => {
  test.beforeAll(({ site }) => {
    site.route('/human/login', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(LOGIN);
    });
  });

  test('URL-mode elicitation: the person signs in on the take-over view and hands back', async ({
    humanServer,
    mesh,
    site,
    viewer,
  }) => {
    const agent = await connectAgent(humanServer.url, true);
    try {
      const s = await newSession(agent, site);
      await agent.ok('browser_trace', { sessionId: s.sessionId, action: 'start', snapshots: true });
      const reason = 'Please sign in to the shop';
      const asked = agent.ok<{ status: string; waitedMs: number; url: string; title: string }>(
        'browser_request_human',
        { ...s, reason },
      );
      await waitFor(async () => agent.elicitations.length === 1, 20_000, 'the URL elicitation');
      const elicited = agent.elicitations[0]!;
      expect(elicited.mode).toBe('url');
      expect(elicited.message).toBe(reason);
      expect(elicited.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/#handoff=/);
      // The session shows "needs you", and the agent's own calls wait behind the request.
      expect((await mesh.getSession(s.sessionId)).queue.size).toBeGreaterThanOrEqual(1);
      let titleRead = false;
      const queued = agent.ok('browser_get_title', s).then((r) => ((titleRead = true), r));

      await personSignsIn(viewer, elicited.url!, reason);
      const result = await asked;
      expect(result).toMatchObject({ status: 'returned', title: 'Home' });
      expect(result.url).toContain('/human/login');
      expect(result.waitedMs).toBeGreaterThan(0);
      await waitFor(async () => agent.completed.length === 1, 10_000, 'elicitation/complete');
      expect(agent.completed).toEqual([elicited.elicitationId]);
      await queued;
      expect(titleRead).toBe(true);

      const snapshot = await agent.call('browser_snapshot', s);
      expect(JSON.stringify(snapshot)).toContain('Signed in');

      const stopped = await agent.ok<{ file: { fileId: string; bytes: number } }>('browser_trace', {
        sessionId: s.sessionId,
        action: 'stop',
      });
      const zip = await readSessionFile(
        (args) => agent.client.callTool({ name: 'browser_files', arguments: args }),
        s.sessionId,
        stopped.file.fileId,
        stopped.file.bytes,
      );
      expectNoPassword([...readZip(zip).values()].map((entry) => entry.toString('latin1')));
      expectNoPassword(agent.results);
      expectNoPassword(logLines);
    } finally {
      await agent.client.close();
    }
  });

  test('without elicitation: the URL comes at once, a second call waits; pending, cancel and timeout', async ({
    humanServer,
    site,
    viewer,
  }) => {
    const agent = await connectAgent(humanServer.url, false);
    try {
      const s = await newSession(agent, site);
      const reason = 'Sign in, please';
      const first = await agent.ok<{ status: string; url: string }>('browser_request_human', {
        ...s,
        reason,
      });
      expect(first.status).toBe('waiting');
      expect(first.url).toMatch(/#handoff=/);
      // The link's token opens that one session (another session of the same client stays hidden)
      // and only while the request waits.
      const other = await newSession(agent, site);
      const link = new URLSearchParams(new URL(first.url).hash.slice(1)).get('handoff')!;
      const asLink = (path: string): Promise<Response> =>
        fetch(first.url.replace(/#.*$/, `api/${path}`), { headers: { Authorization: `Bearer ${link}` } });
      const seen = (await (await asLink('state')).json()) as {
        sessions: Array<{ sessionId: string; needsYou: { reason: string } | null }>;
      };
      expect(seen.sessions.map((x) => [x.sessionId, x.needsYou?.reason])).toEqual([[s.sessionId, reason]]);
      expect((await asLink(`thumbnail?sessionId=${other.sessionId}&pageId=${other.pageId}`)).status).toBe(
        404,
      );
      await agent.ok('browser_session_close', { sessionId: other.sessionId });

      const again = await agent.call('browser_request_human', { ...s, reason });
      expect(again.isError).toBe(true);
      expect(JSON.stringify(again.content)).toContain('HUMAN_REQUEST_PENDING');

      const waited = agent.ok<{ status: string; title: string }>('browser_request_human', {
        sessionId: s.sessionId,
        wait: true,
        timeoutMs: 120_000,
      });
      await personSignsIn(viewer, first.url, reason);
      expect(await waited).toMatchObject({ status: 'returned', title: 'Home' });
      expectNoPassword(agent.results);
      expect((await asLink('state')).status).toBe(401);

      // Cancel: the request is withdrawn and the session works.
      expect(
        (await agent.ok<{ status: string }>('browser_request_human', { ...s, reason: 'again' })).status,
      ).toBe('waiting');
      expect(
        (
          await agent.ok<{ status: string }>('browser_request_human', {
            sessionId: s.sessionId,
            cancel: true,
          })
        ).status,
      ).toBe('cancelled');
      expect((await agent.ok<{ title: string }>('browser_get_title', s)).title).toBe('Home');

      // Timeout: nobody comes; the request ends and the session works.
      expect(
        (
          await agent.ok<{ status: string }>('browser_request_human', {
            ...s,
            reason: 'nobody comes',
            timeoutMs: 500,
          })
        ).status,
      ).toBe('waiting');
      expect(
        (
          await agent.ok<{ status: string }>('browser_request_human', {
            sessionId: s.sessionId,
            wait: true,
            timeoutMs: 60_000,
          })
        ).status,
      ).toBe('timeout');
      expect((await agent.ok<{ title: string }>('browser_get_title', s)).title).toBe('Home');
    } finally {
      await agent.client.close();
    }
  });
});
