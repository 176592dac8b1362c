/**
 * A session's guard listener admits only its own browser (docs/security.md, "The shell daemon and other
 * local users"): a loopback connection from this very process — the same user, but not the browser —
 * is closed before a byte is answered and counted, while the session's browser, whose network service
 * holds its own connections, keeps browsing the fixture site through the same guard. Loopback only.
 */
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';
import { greetFrom } from './support/guard-listener.js';

let site: FixtureServer;
let h: McpHarness;

test.beforeAll(({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
});

describe.skipIf(process.platform !== 'linux')("a session's guard listener", () => {
  test('refuses a same-user process that is not its browser, and still serves its browser', async () => {
    const s = await h.session();
    const guard = h.mesh.getSession(s.sessionId).urlGuard;
    const server = guard?.contextProxy()?.server;
    expect(server).toMatch(/^socks5:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(server ?? '').port);

    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    const before = guard?.guardStats();
    expect(before?.connects).toBeGreaterThan(0);
    expect(before?.refusedPeers).toBe(0);

    // A SOCKS5 greeting from this process (same user, not the browser).
    expect(await greetFrom(port, '127.0.0.1')).toBe('closed');
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
