import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import type { RunningHttpServer } from '../../src/mcp/http.js';
import { rawRequest } from './support/mcp-http.js';

// The container's health check. GET /healthz answers behind the same token and Host guard as
// /mcp, without launching a browser.

const TOKEN = 'health-token-0123456789abcdef';
let mesh: BrowserMesh;
let server: RunningHttpServer;
let health: string;

// The file's mesh and HTTP server come from the shared fixtures.
const test = fixtureTest.extend('httpOptions', { scope: 'file' }, () => ({ token: TOKEN }));

test.beforeAll(({ mesh: fileMesh, httpServer }) => {
  mesh = fileMesh;
  server = httpServer;
  health = server.url.replace(/\/mcp$/, '/healthz');
});

describe('GET /healthz', () => {
  test('answers ok with the token, and launches no browser', async () => {
    const answer = await rawRequest(health, { method: 'GET', headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
    expect(mesh.runtimeInfo().browser.state).toBe('idle');
  });

  test('is refused without the token, from a foreign Host, or with another method', async () => {
    expect((await rawRequest(health, { method: 'GET' })).status).toBe(401);
    const foreign = await rawRequest(health, {
      method: 'GET',
      headers: { Authorization: `Bearer ${TOKEN}`, Host: 'evil.example' },
    });
    expect(foreign.status).toBe(403);
    const post = await rawRequest(health, { headers: { Authorization: `Bearer ${TOKEN}` }, body: '{}' });
    expect(post.status).toBe(404);
  });
});
