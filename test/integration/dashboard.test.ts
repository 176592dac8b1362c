/**
 * The live dashboard, driven in a real Chromium (a separate "viewer" browser) against a running
 * Streamable HTTP server with a token: a session created over MCP appears, its frames update, an
 * operation shows with its duration, a closed session goes away, a missing or wrong token is refused,
 * and take-over holds the agent's queue until it is handed back.
 */
import type { FixtureServer } from '../fixtures/server.mjs';
import { startDashboardServer } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/engine/logger.js';
import {
  createSession,
  describe,
  expect,
  openDashboard,
  test as fixtureTest,
  waitForFrames,
  type SessionIds,
} from './support/dashboard.js';
import { err, ok, rawRequest, type HttpClient } from './support/mcp-http.js';
import { waitFor } from './support/wait.js';

const TOKEN = 'dashboard-test-token-0123456789';
// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('dashboardSetup', { scope: 'file' }, () => ({
  token: TOKEN,
  takeover: true,
  config: { secrets: { API_KEY: 'CONFIGURED-SECRET-4' } },
}));

/** A page that repaints on its own, so screencast frames keep coming; a button and a field to drive. */
const TICKER = `<!doctype html><title>Ticker</title><h1 id="n">0</h1>
<button id="b" style="position:fixed;left:0;top:80px;width:300px;height:120px">press</button>
<input id="f" style="position:fixed;left:0;top:220px;width:300px" />
<p id="clicked"></p>
<script>let i=0;setInterval(()=>{document.getElementById('n').textContent=String(++i)},100);
document.getElementById('b').addEventListener('click',()=>{document.getElementById('clicked').textContent='yes'});</script>`;

/** A page with a cookie, a console error with text (and a --secrets value), a failed request and a 404. */
const NOISY = `<!doctype html><title>Noisy</title><p id="t"></p><script>
document.cookie = 'sid=COOKIE-SECRET-1; path=/';
console.error('boom MESSAGE-TEXT-2 key=CONFIGURED-SECRET-4');
fetch('/watch/not-here-404');
fetch('http://127.0.0.1:1/refused').catch(() => {});
</script>`;

test.beforeAll(({ site }) => {
  site.route('/watch/ticker', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(TICKER);
  });
  site.route('/watch/noisy', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(NOISY);
  });
});

const createTicker = (agent: HttpClient, site: FixtureServer, name: string): Promise<SessionIds> =>
  createSession(agent, { name, metadata: { role: 'buyer' } }, site.url('/watch/ticker'));

describe('live dashboard over the HTTP server', () => {
  test('shows a session created over MCP, its live frames and its operations, and drops it once closed', async ({
    agent,
    site,
    viewer,
    dashboardUrl,
  }) => {
    const { sessionId } = await createTicker(agent, site, 'watched');
    const page = await openDashboard(viewer, dashboardUrl, TOKEN);
    const card = page.locator(`[data-session-id="${sessionId}"]`);
    await card.waitFor();
    expect(await card.textContent()).toContain('watched');
    expect(await card.textContent()).toContain('role=buyer');
    // The token left the address bar once read.
    expect(page.url()).not.toContain(TOKEN);

    await card.click();
    const img = page.locator('.live img');
    await waitForFrames(page, 3);
    expect(await img.evaluate((node: HTMLImageElement) => node.naturalWidth)).toBeGreaterThan(0);

    const row = page.locator('#operations tr[data-tool="browser_navigate"]');
    await row.waitFor();
    expect(await row.locator('td.duration').textContent()).toMatch(/^\d+ ms$/);
    expect(await row.locator('td').nth(3).textContent()).toBe('ok');
    expect(await page.locator('.pageinfo').textContent()).toContain('/watch/ticker');

    await ok(agent.client, 'browser_session_close', { sessionId });
    await card.waitFor({ state: 'detached' });
    await page.close();
  });

  test('shows a failed call with its error code and never the arguments', async ({
    agent,
    site,
    dashboardUrl,
  }) => {
    const { sessionId, pageId } = await createTicker(agent, site, 'errors');
    const secret = 'hunter2-secret-value';
    await ok(agent.client, 'browser_fill', { sessionId, pageId, locator: { css: '#f' }, value: secret });
    expect(
      (await err(agent.client, 'browser_click', { sessionId, pageId, locator: { css: '#nope' } })).code,
    ).toBe('ELEMENT_NOT_FOUND');
    const state = await fetch(`${dashboardUrl}api/state`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const body = await state.text();
    expect(body).not.toContain(secret);
    const session = (
      JSON.parse(body) as { sessions: Array<{ sessionId: string; operations: unknown[] }> }
    ).sessions.find((s) => s.sessionId === sessionId);
    expect(session?.operations).toContainEqual(
      expect.objectContaining({ tool: 'browser_click', errorCode: 'ELEMENT_NOT_FOUND' }),
    );
    expect(session?.operations).toContainEqual(
      expect.objectContaining({ tool: 'browser_fill', errorCode: null }),
    );
    await ok(agent.client, 'browser_session_close', { sessionId });
  });

  test('shows owner, queue depth, console error text and failed requests, never cookies, secrets or secret query values', async ({
    agent,
    site,
    viewer,
    dashboardUrl,
    mesh,
  }) => {
    const { sessionId, pageId } = await createTicker(agent, site, 'noisy');
    await ok(agent.client, 'browser_navigate', {
      sessionId,
      pageId,
      url: site.url('/watch/noisy?token=QUERY-SECRET-3&q=shoes'),
    });
    const auth = { Authorization: `Bearer ${TOKEN}` };
    type Shown = {
      sessionId: string;
      owner: string | null;
      queueDepth: number;
      pages: Array<{
        url: string;
        events: Array<{ source: string; level?: string; status?: number; text?: string }>;
      }>;
    };
    let body = '';
    let shown: Shown | undefined;
    await waitFor(
      async () => {
        body = await (await fetch(`${dashboardUrl}api/state`, { headers: auth })).text();
        shown = (JSON.parse(body) as { sessions: Shown[] }).sessions.find((s) => s.sessionId === sessionId);
        const events = shown?.pages[0]?.events ?? [];
        return (
          events.some((e) => e.source === 'console' && e.level === 'error') &&
          events.some((e) => e.source === 'network' && e.status === 404) &&
          events.some((e) => e.source === 'requestFailed')
        );
      },
      15_000,
      'the console error, the 404 and the failed request',
    );
    // The owning HTTP client as a short digest, never its MCP session id.
    expect(shown?.owner).toMatch(/^[0-9a-f]{8}$/);
    expect(body).not.toContain(agent.transport.sessionId ?? 'no-session-id');
    expect(shown?.pages[0]?.url).toContain('q=shoes');
    for (const secret of ['COOKIE-SECRET-1', 'QUERY-SECRET-3', 'CONFIGURED-SECRET-4', TOKEN])
      expect(body).not.toContain(secret);
    // The console error's text is shown, with the --secrets value replaced by its reference.
    const consoleError = shown?.pages[0]?.events.find((e) => e.source === 'console');
    expect(consoleError?.text).toBe('boom MESSAGE-TEXT-2 key={{secret:API_KEY}}');

    // Queue depth, as the viewer sees it: a call waiting on the page counts.
    const page = await openDashboard(viewer, dashboardUrl, TOKEN);
    const card = page.locator(`[data-session-id="${sessionId}"]`);
    await card.waitFor();
    await page.waitForFunction(
      (id) => document.querySelector(`[data-session-id="${id}"]`)?.textContent?.includes('queue 0'),
      sessionId,
    );
    // The viewer sees the message in the page's events.
    await card.click();
    await page.locator('#events .event-text', { hasText: 'boom MESSAGE-TEXT-2' }).waitFor();
    expect(await page.locator('#events').textContent()).not.toContain('CONFIGURED-SECRET-4');
    const waiting = ok(agent.client, 'browser_wait', {
      sessionId,
      pageId,
      text: 'released-now',
      timeoutMs: 60_000,
    });
    waiting.catch(() => undefined);
    await page.waitForFunction(
      (id) => document.querySelector(`[data-session-id="${id}"]`)?.textContent?.includes('queue 1'),
      sessionId,
    );
    await mesh
      .getSession(sessionId)
      .getPage(pageId)
      .page.evaluate(() => {
        document.getElementById('t')!.textContent = 'released-now';
      });
    await waiting;
    await page.close();
    await ok(agent.client, 'browser_session_close', { sessionId });
  });

  test('screencasts a page only while someone watches it', async ({
    agent,
    site,
    viewer,
    dashboardUrl,
    dashboard,
  }) => {
    const { sessionId } = await createTicker(agent, site, 'watched-or-not');
    await waitFor(() => dashboard.watchedPages() === 0, 10_000, 'no screencast before anyone watches');
    const page = await openDashboard(viewer, dashboardUrl, TOKEN);
    await page.locator(`[data-session-id="${sessionId}"]`).click();
    await waitForFrames(page, 2);
    expect(dashboard.watchedPages()).toBe(1);
    // A second viewer of the same page shares the one screencast.
    const second = await openDashboard(viewer, dashboardUrl, TOKEN);
    await second.locator(`[data-session-id="${sessionId}"]`).click();
    await waitForFrames(second, 1);
    expect(dashboard.watchedPages()).toBe(1);
    await Promise.all([page.close(), second.close()]);
    await waitFor(() => dashboard.watchedPages() === 0, 10_000, 'the screencast to stop once nobody watches');
    await ok(agent.client, 'browser_session_close', { sessionId });
  });

  test('shows a still of every session in its card, behind the token', async ({
    agent,
    site,
    viewer,
    dashboardUrl,
  }) => {
    const { sessionId, pageId } = await createTicker(agent, site, 'thumbnailed');
    const query = `${dashboardUrl}api/thumbnail?sessionId=${sessionId}&pageId=${pageId}`;
    expect((await fetch(query)).status).toBe(401);
    const res = await fetch(query, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const still = (await res.json()) as { data: string; timestamp: number };
    const jpeg = Buffer.from(still.data, 'base64');
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const unknown = await fetch(`${dashboardUrl}api/thumbnail?sessionId=s_nonexistent&pageId=${pageId}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(unknown.status).toBeGreaterThanOrEqual(400);

    // Without selecting it, the card shows the page's still.
    const page = await openDashboard(viewer, dashboardUrl, TOKEN);
    const thumb = page.locator(`[data-session-id="${sessionId}"] img.thumb`);
    await thumb.waitFor();
    await page.waitForFunction(
      (id) =>
        (
          document.querySelector(`[data-session-id="${id}"] img.thumb`) as HTMLImageElement | null
        )?.src.startsWith('data:image/jpeg;base64,') ?? false,
      sessionId,
    );
    expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await page.close();
    await ok(agent.client, 'browser_session_close', { sessionId });
  });

  test('refuses the data without the token or with a wrong one', async ({ viewer, dashboardUrl }) => {
    const attempts: Array<Record<string, string>> = [
      {},
      { Authorization: 'Bearer wrong-token-0123456789' },
      { Authorization: TOKEN },
    ];
    for (const headers of attempts) {
      for (const path of ['api/state', 'api/stream', 'api/frames?sessionId=s&pageId=p']) {
        const res = await rawRequest(`${dashboardUrl}${path}`, { method: 'GET', headers });
        expect(res.status).toBe(401);
        expect(res.body).not.toContain('wrong-token');
      }
    }
    // The shell itself holds no data; opened without the token it says it was refused.
    const page = await openDashboard(viewer, dashboardUrl, 'wrong-token-0123456789');
    await page.waitForFunction(() => document.body.dataset.refused === '401');
    expect(await page.locator('[data-session-id]').count()).toBe(0);
    await page.close();
    // Without the trailing slash the shell's relative module URLs would miss: it redirects.
    const bare = await rawRequest(dashboardUrl.replace(/\/$/, ''), { method: 'GET' });
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe('/dashboard/');
    // A foreign Host (DNS rebinding) is refused even for the shell.
    const rebound = await rawRequest(dashboardUrl, { method: 'GET', headers: { Host: 'evil.example' } });
    expect(rebound.status).toBe(403);
  });

  test('answers bad requests with stable codes and keeps working', async ({ dashboardUrl }) => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const missing = await rawRequest(`${dashboardUrl}api/frames?sessionId=s_nope&pageId=p_nope`, {
      method: 'GET',
      headers: auth,
    });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.code).toBe('SESSION_NOT_FOUND');
    const badId = await rawRequest(`${dashboardUrl}api/frames?sessionId=${'x'.repeat(100)}&pageId=p`, {
      method: 'GET',
      headers: auth,
    });
    expect(JSON.parse(badId.body).error.code).toBe('INVALID_ARGUMENT');
    const notJson = await rawRequest(`${dashboardUrl}api/takeover/start`, { headers: auth, body: '{nope' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe('INVALID_ARGUMENT');
    const unknown = await rawRequest(`${dashboardUrl}api/whatever`, { method: 'GET', headers: auth });
    expect(JSON.parse(unknown.body).error.code).toBe('INVALID_ARGUMENT');
    const state = await rawRequest(`${dashboardUrl}api/state`, { method: 'GET', headers: auth });
    expect(state.status).toBe(200);
  });

  test('lets a person take a session over while the agent waits, then hands it back', async ({
    agent,
    site,
    viewer,
    dashboardUrl,
    mesh,
  }) => {
    const { sessionId, pageId } = await createTicker(agent, site, 'takeover');
    const page = await openDashboard(viewer, dashboardUrl, TOKEN);
    await page.locator(`[data-session-id="${sessionId}"]`).click();
    await waitForFrames(page, 1);
    await page.locator('#takeover').click();
    await page.locator('#handback').waitFor();

    // The agent's call queues behind the take-over.
    let done = false;
    const agentCall = ok<{ title: string }>(agent.client, 'browser_get_title', {
      sessionId,
      pageId,
      timeoutMs: 60_000,
    }).then((r) => {
      done = true;
      return r;
    });
    agentCall.catch(() => undefined);
    await waitFor(() => mesh.getSession(sessionId).queue.size === 2, 10_000, 'the agent call to queue');
    expect(done).toBe(false);

    // The person clicks the button (on the live image, scaled to the viewport) and types.
    const box = (await page.locator('.live img').boundingBox())!;
    const vp = mesh.getSession(sessionId).getPage(pageId).page.viewportSize()!;
    // A state update lands between mouse-down and mouse-up (the way it did in CI under load): the
    // click must still reach the page.
    await page.mouse.move(box.x + (150 / vp.width) * box.width, box.y + (140 / vp.height) * box.height);
    const updated = page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          new MutationObserver(() => resolve()).observe(document.getElementById('detail-tail')!, {
            childList: true,
          }),
        ),
    );
    await page.mouse.down();
    await updated;
    await page.mouse.up();
    const target = mesh.getSession(sessionId).getPage(pageId).page;
    await target.locator('#clicked').filter({ hasText: 'yes' }).waitFor();
    await target.locator('#f').focus();
    // What the person types stays masked on the dashboard.
    expect(await page.locator('#takeover-text').getAttribute('type')).toBe('password');
    await page.locator('#takeover-text').fill('typed by a person');
    await page.getByRole('button', { name: 'Type', exact: true }).click();
    await waitFor(
      async () => (await target.locator('#f').inputValue()) === 'typed by a person',
      10_000,
      'typing',
    );

    const shown = await fetch(`${dashboardUrl}api/state`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(await shown.text()).not.toContain('typed by a person');
    await page.locator('#handback').click();
    expect((await agentCall).title).toBe('Ticker');
    await page.locator('#takeover').waitFor();
    await page.close();
    await ok(agent.client, 'browser_session_close', { sessionId });
  });
});

describe('dashboard for stdio users (own loopback port)', () => {
  test('serves the dashboard on 127.0.0.1 with the same guard', async ({ mesh }) => {
    const dashboard = await startDashboardServer({
      mesh,
      logger: createLogger('silent'),
      port: 0,
      token: TOKEN,
      takeover: false,
    });
    try {
      expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/$/);
      expect((await rawRequest(`${dashboard.url}api/state`, { method: 'GET' })).status).toBe(401);
      const res = await rawRequest(`${dashboard.url}api/state`, {
        method: 'GET',
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(JSON.parse(res.body).takeoverEnabled).toBe(false);
      const refused = await rawRequest(`${dashboard.url}api/takeover/start`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
        body: '{}',
      });
      expect(JSON.parse(refused.body).error.code).toBe('NOT_SUPPORTED');
      expect(
        (await rawRequest(dashboard.url, { method: 'GET', headers: { Host: 'evil.example' } })).status,
      ).toBe(403);
    } finally {
      await dashboard.close();
    }
  });
});
