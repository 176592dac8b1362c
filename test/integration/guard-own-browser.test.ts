/**
 * A session's guard listener admits only its own browser and this process (docs/security.md, "The
 * shell daemon and other local users"): a loopback connection from another process of the same user
 * is closed before a byte is answered and counted, while the session's browser, whose network service
 * holds its own connections, keeps browsing the fixture site through the same guard, and so do the
 * context's own API requests (`context.request`, sent from this process). Loopback only.
 */
import { spawn } from 'node:child_process';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;

/** A SOCKS5 greeting to 127.0.0.1:port from a child process: its reply in hex, or 'closed'. */
function greetFromChild(port: number): Promise<string> {
  const script = `const s = require('node:net').connect({ host: '127.0.0.1', port: ${port} });
s.once('connect', () => s.write(Buffer.from([5, 1, 0])));
s.once('data', (d) => { process.stdout.write(d.toString('hex')); s.destroy(); });
s.once('close', () => process.exit(0));
s.on('error', () => undefined);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', () => resolve(out === '' ? 'closed' : out));
  });
}

test.beforeAll(({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
});

describe.skipIf(process.platform !== 'linux')("a session's guard listener", () => {
  test('refuses a same-user process that is not its browser; serves its browser and its API requests', async () => {
    const s = await h.session();
    const guard = h.mesh.getSession(s.sessionId).urlGuard;
    const server = guard?.contextProxy()?.server;
    expect(server).toMatch(/^socks5:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(server ?? '').port);

    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    const before = guard?.guardStats();
    expect(before?.connects).toBeGreaterThan(0);
    expect(before?.refusedPeers).toBe(0);

    // A SOCKS5 greeting from another process of this user, not the browser.
    expect(await greetFromChild(port)).toBe('closed');
    expect(guard?.guardStats()?.refusedPeers).toBe(1);

    // The context's own API request goes through the guard from this process, and is admitted.
    const context = h.mesh.getSession(s.sessionId).browserContext;
    const response = await context.request.get(site.url('/'));
    expect(response.status()).toBe(200);
    expect(guard?.guardStats()?.refusedPeers).toBe(1);

    // The browser still browses through the same guard, on a new connection of its own (another
    // host name for the same loopback site, so no kept-alive connection is reused).
    const other = site.url('/').replace('127.0.0.1', 'localhost');
    const page = await h.ok<{ url: string; status?: number }>('browser_navigate', { ...s, url: other });
    expect(page.url).toContain('localhost');
    const after = guard?.guardStats();
    expect(after?.connects).toBeGreaterThan(before?.connects ?? 0);
    expect(after?.refusedPeers).toBe(1);
  });
});
