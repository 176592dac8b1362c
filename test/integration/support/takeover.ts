import { expect } from 'vitest';
import type { McpHarness } from '../../helpers/harness.js';
import type { FixtureServer } from '../../fixtures/server.mjs';
import { waitFor } from './wait.js';

const FORM = `<!doctype html><title>Form</title>
<button id="b" style="position:fixed;left:0;top:0;width:200px;height:100px">press</button>
<input id="f" style="position:fixed;left:0;top:120px;width:200px" /><p id="clicked"></p>
<script>document.getElementById('b').addEventListener('click',()=>{document.getElementById('clicked').textContent='yes'})</script>`;

async function post(dashboardUrl: string, route: string, body: unknown): Promise<Response> {
  return fetch(`${dashboardUrl}api/takeover/${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * Takes a session over through the dashboard API (as the page's buttons do), checks the agent's call
 * waits behind it while a click and typed text reach the page, then hands it back and the call runs.
 */
export async function expectTakeover(
  dashboardUrl: string,
  h: McpHarness,
  s: { sessionId: string; pageId: string },
  site: FixtureServer,
): Promise<void> {
  site.route('/takeover/form', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(FORM);
  });
  await h.ok('browser_navigate', { ...s, url: site.url('/takeover/form') });
  expect((await post(dashboardUrl, 'start', s)).status).toBe(200);
  let done = false;
  const agentCall = h.ok<{ title: string }>('browser_get_title', { ...s, timeoutMs: 60_000 }).then((r) => {
    done = true;
    return r;
  });
  agentCall.catch(() => undefined);
  const session = h.mesh.getSession(s.sessionId);
  await waitFor(() => session.queue.size === 2, 15_000, 'the agent call to queue behind the take-over');
  expect(
    (await post(dashboardUrl, 'input', { sessionId: s.sessionId, type: 'click', x: 100, y: 50 })).status,
  ).toBe(200);
  const page = session.getPage(s.pageId).page;
  await page.locator('#clicked').filter({ hasText: 'yes' }).waitFor();
  await page.locator('#f').focus();
  expect(
    (await post(dashboardUrl, 'input', { sessionId: s.sessionId, type: 'text', text: 'typed by a person' }))
      .status,
  ).toBe(200);
  await waitFor(
    async () => (await page.locator('#f').inputValue()) === 'typed by a person',
    15_000,
    'typing',
  );
  expect(done).toBe(false);
  expect((await post(dashboardUrl, 'release', { sessionId: s.sessionId })).status).toBe(200);
  expect((await agentCall).title).toBe('Form');
}
