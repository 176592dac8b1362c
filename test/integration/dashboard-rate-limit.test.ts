/**
 * Issue 25, medium finding: dashboard API requests skipped the per-principal rate limit that MCP
 * requests obey. They now take from the same budget; the static shell does not. Loopback only, no
 * browser launched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserMesh } from '../../src/create-mesh.js';
import { createDashboard } from '../../src/dashboard/handler.js';
import { createLogger } from '../../src/engine/logger.js';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import type { RunningHttpServer } from '../../src/mcp/http.js';
import { testConfig } from '../helpers/harness.js';
import { rawRequest, startTestHttpServer } from './support/mcp-http.js';

const TOKEN = 'operator-token-0123456789abcdef';
const RATE = 5;
let mesh: BrowserMesh;
let server: RunningHttpServer;
let base: string;

beforeAll(async () => {
  mesh = createBrowserMesh({ config: testConfig(), logger: createLogger('silent') });
  server = await startTestHttpServer(mesh, {
    token: TOKEN,
    limits: { ratePerMinute: RATE },
    dashboard: createDashboard({ mesh, logger: createLogger('silent'), takeover: false }),
  });
  base = server.url.replace(/\/mcp$/, '');
});
afterAll(async () => {
  await server?.close();
  await mesh?.shutdown();
});

describe('dashboard API and the rate limit', () => {
  it("answers 429 with Retry-After once the principal's budget is spent; the shell stays served", async () => {
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
