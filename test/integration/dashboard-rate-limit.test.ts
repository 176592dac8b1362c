/**
 * Dashboard API requests skipped the per-principal rate limit that MCP
 * requests obey. They now take from the same budget; the static shell does not. Loopback only, no
 * browser launched.
 */
import { describe, expect, test as fixtureTest } from './support/dashboard.js';
import { rawRequest } from './support/mcp-http.js';

const TOKEN = 'operator-token-0123456789abcdef';
const RATE = 5;
// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('dashboardSetup', { scope: 'file' }, () => ({
  token: TOKEN,
  takeover: false,
  limits: { ratePerMinute: RATE },
}));

describe('dashboard API and the rate limit', () => {
  test("answers 429 with Retry-After once the principal's budget is spent; the shell stays served", async ({
    server,
  }) => {
    const base = server.url.replace(/\/mcp$/, '');
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < RATE + 3; i++) {
      const res = await rawRequest(`${base}/dashboard/api/state`, {
        method: 'GET',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = String(res.headers['retry-after']);
    }
    expect(statuses.slice(0, RATE)).toEqual(Array(RATE).fill(200));
    expect(statuses.slice(RATE)).toEqual([429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // The same budget as MCP requests: the principal's MCP request is refused too.
    const mcp = await rawRequest(server.url, {
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(mcp.status).toBe(429);
    const shell = await rawRequest(`${base}/dashboard/`, { method: 'GET' });
    expect(shell.status).toBe(200);
  });
});
