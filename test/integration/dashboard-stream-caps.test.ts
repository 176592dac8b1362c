/**
 * Dashboard event streams were not capped per principal, and a token-less (stdio) dashboard
 * took a take-over POST from any other loopback origin's page (its Origin passed the host-name check).
 * Two loopback origins: the dashboard's own port and the fixture site's. Nothing leaves 127.0.0.1.
 */
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { ToolProfile } from '../../src/config/config-types.js';
import type { RunningDashboard } from '../../src/dashboard/server.js';
import { describe, expect, test as fixtureTest, type SessionIds } from './support/dashboard.js';
import { rawRequest } from './support/mcp-http.js';
import { waitFor } from './support/wait.js';

// The stdio server's dashboard: its own port, no token, over the file's MCP harness.
// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest
  .extend('harnessConfig', { scope: 'file' }, (): { tools: ToolProfile[] } => ({ tools: ['core'] }))
  .extend('dashboardSetup', { scope: 'file' }, () => ({
    token: '',
    takeover: true,
    maxStreamsPerPrincipal: 2,
  }));

/** Opens an event stream and resolves once its status is known; the caller ends it. */
function openStream(
  dashboard: RunningDashboard,
  path: string,
): Promise<{ status: number; body: string; req: ClientRequest; res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = request(`${dashboard.url}${path}`, { method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
        if (res.statusCode !== 200 || body.includes(': open'))
          resolve({ status: res.statusCode ?? 0, body, req, res });
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, req, res }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function takenOver(dashboard: RunningDashboard, s: SessionIds): Promise<boolean> {
  const state = await rawRequest(`${dashboard.url}api/state`, { method: 'GET' });
  const parsed = JSON.parse(state.body) as { sessions: Array<{ sessionId: string; takenOver: boolean }> };
  return parsed.sessions.find((session) => session.sessionId === s.sessionId)?.takenOver ?? false;
}

describe('dashboard stream caps', () => {
  test('caps open event streams per principal with LIMIT_EXCEEDED, and frees a slot when one closes', async ({
    ownDashboard,
    session: s,
  }) => {
    const first = await openStream(ownDashboard, 'api/stream');
    const second = await openStream(ownDashboard, `api/frames?sessionId=${s.sessionId}&pageId=${s.pageId}`);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await openStream(ownDashboard, 'api/stream');
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body)).toMatchObject({ error: { code: 'LIMIT_EXCEEDED' } });

    first.req.destroy();
    let again: Awaited<ReturnType<typeof openStream>> | undefined;
    await waitFor(
      async () => {
        again?.req.destroy();
        again = await openStream(ownDashboard, 'api/stream');
        return again.status === 200;
      },
      20_000,
      'a stream slot to come free',
    );
    again?.req.destroy();
    second.req.destroy();
  });
});

describe('a token-less dashboard and other loopback origins', () => {
  test("refuses a take-over POST from another loopback origin's page", async ({
    ownDashboard,
    site,
    session: s,
  }) => {
    const body = JSON.stringify({ sessionId: s.sessionId, pageId: s.pageId });
    const foreign = await rawRequest(`${ownDashboard.url}api/takeover/start`, {
      headers: { Origin: site.origin },
      body,
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect(await takenOver(ownDashboard, s)).toBe(false);

    // The dashboard's own page (its own origin) still takes over and releases.
    const own = new URL(ownDashboard.url).origin;
    const mine = await rawRequest(`${ownDashboard.url}api/takeover/start`, {
      headers: { Origin: own },
      body,
    });
    expect(mine.status).toBe(200);
    expect(await takenOver(ownDashboard, s)).toBe(true);
    const released = await rawRequest(`${ownDashboard.url}api/takeover/release`, {
      headers: { Origin: own },
      body: JSON.stringify({ sessionId: s.sessionId }),
    });
    expect(released.status).toBe(200);
  });

  test('refuses the API to a page on another loopback origin in a real browser (no-cors POST)', async ({
    ownDashboard,
    site,
    harness: h,
    session: s,
  }) => {
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    const target = `${ownDashboard.url}api/takeover/start`;
    const body = JSON.stringify({ sessionId: s.sessionId, pageId: s.pageId });
    await h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', async ({ page }) => {
      await page.page.evaluate(
        async ([url, text]) => {
          await fetch(url as string, { method: 'POST', mode: 'no-cors', body: text as string }).catch(
            () => undefined,
          );
        },
        [target, body],
      );
    });
    expect(await takenOver(ownDashboard, s)).toBe(false);
  });
});
