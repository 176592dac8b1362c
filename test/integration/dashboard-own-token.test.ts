/**
 * The loopback dashboard of the stdio server and the CLI daemon, started without an operator token,
 * makes a random token of its own: its port is open to every local user, the token keeps them out.
 * Every data request (state, the event streams, thumbnails, the take-over) needs it; the address a
 * person opens carries it in the fragment. Nothing leaves 127.0.0.1.
 */
import { createLogger } from '../../src/engine/logger.js';
import {
  dashboardSettings,
  startDashboardServer,
  type RunningDashboard,
} from '../../src/dashboard/server.js';
import { testConfig } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/dashboard.js';

const test = fixtureTest.extend(
  'tokenDashboard',
  { scope: 'file' },
  async ({ harness }, { onCleanup }): Promise<RunningDashboard> => {
    const settings = dashboardSettings(testConfig({ httpToken: '', dashboardTakeover: true }));
    const dashboard = await startDashboardServer({
      mesh: harness.mesh,
      logger: createLogger('silent'),
      ...settings,
    });
    onCleanup(() => dashboard.close());
    return dashboard;
  },
);

const tokenOf = (dashboard: RunningDashboard): string =>
  /#token=([\w-]+)$/.exec(dashboard.openUrl)?.[1] ?? '';

/** The status and content type of a request, its body left unread (an event stream never ends). */
async function ask(
  url: string,
  token: string | undefined,
  init: RequestInit = {},
): Promise<{ status: number; type: string }> {
  const abort = new AbortController();
  const response = await fetch(url, {
    ...init,
    signal: abort.signal,
    headers: {
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
      'Content-Type': 'application/json',
    },
  });
  const result = { status: response.status, type: response.headers.get('content-type') ?? '' };
  abort.abort();
  return result;
}

describe('a loopback dashboard without an operator token', () => {
  test('is opened with a random token of its own, given in the fragment only', ({ tokenDashboard }) => {
    const token = tokenOf(tokenDashboard);
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(tokenDashboard.openUrl).toBe(`${tokenDashboard.url}#token=${token}`);
    expect(tokenDashboard.url).not.toContain(token);
    // Each start makes another; an operator token is used as it is and never put in the address.
    const other = dashboardSettings(testConfig({ httpToken: '' }));
    expect(other.token).not.toBe(token);
    expect(dashboardSettings(testConfig({ httpToken: 'operator-token-0123456789' }))).toMatchObject({
      token: 'operator-token-0123456789',
      ownToken: false,
    });
  });

  test('refuses every data request without it (401) and answers with it', async ({
    tokenDashboard,
    session: s,
  }) => {
    const token = tokenOf(tokenDashboard);
    const base = tokenDashboard.url;
    const reads = [
      `${base}api/state`,
      `${base}api/stream`,
      `${base}api/frames?sessionId=${s.sessionId}&pageId=${s.pageId}`,
      `${base}api/thumbnail?sessionId=${s.sessionId}&pageId=${s.pageId}`,
    ];
    for (const url of reads) {
      expect((await ask(url, undefined)).status, url).toBe(401);
      expect((await ask(url, 'not-the-token')).status, url).toBe(401);
    }
    const takeover = (route: string, with_: string | undefined): Promise<{ status: number }> =>
      ask(`${base}api/takeover/${route}`, with_, {
        method: 'POST',
        body: JSON.stringify({ sessionId: s.sessionId, pageId: s.pageId }),
      });
    expect((await takeover('start', undefined)).status).toBe(401);
    expect((await takeover('start', 'not-the-token')).status).toBe(401);

    expect(await ask(`${base}api/state`, token)).toMatchObject({ status: 200, type: 'application/json' });
    expect(await ask(`${base}api/stream`, token)).toMatchObject({ status: 200, type: 'text/event-stream' });
    expect((await ask(reads[3] ?? '', token)).status).toBe(200);
    expect((await takeover('start', token)).status).toBe(200);
    expect((await takeover('release', token)).status).toBe(200);
    // The static shell holds no data: it loads without the token and reads it from the fragment.
    expect((await ask(base, undefined)).status).toBe(200);
  });
});
