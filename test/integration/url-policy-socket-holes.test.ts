/**
 * Four ways a page's WebSocket reached a blocked host where request
 * interception stands in for the guard proxy (an operator proxy, a remote-debugging Chromium, a
 * Selenium Grid). Loopback only: the trap on the alias 127.0.0.2 is configured as blocked and must
 * receive no connection; the echo on 127.0.0.1 is allowed and must still open.
 */
import { describe, expect, test } from './support/fixtures.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { startTrap, type Trap } from '../fixtures/lib/trap.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { INTERCEPTION_MODES, useModeHarness } from './support/interception-modes.js';
import { startSocketEcho, type SocketEcho } from './support/worker-sockets.js';
import { installSocketHolePages } from './support/socket-holes.js';

let site: FixtureServer;
let trap: Trap;
let echo: SocketEcho;

// The site comes from the shared fixtures; the trap (on the blocked alias) and the echo are the file's own.
test.beforeAll(async ({ site: fileSite }) => {
  site = fileSite;
  [trap, echo] = await Promise.all([startTrap('127.0.0.2'), startSocketEcho()]);
  installSocketHolePages(site, trap, echo);
});
test.afterAll(async () => {
  await trap?.close();
  await echo?.close();
});

describe.each(INTERCEPTION_MODES)('WebSocket paths around the interception gates: $name', (mode) => {
  const started = useModeHarness(mode);
  let h: McpHarness;
  let s: { sessionId: string; pageId: string };
  test.beforeAll(() => {
    if (!mode.skip) ({ h, s } = started());
  });

  async function settled(path: string): Promise<Record<string, string>> {
    await h.ok('browser_navigate', { ...s, url: site.url(path) });
    await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 20_000 });
    const text = (await h.ok<{ text: string }>('browser_visible_text', s)).text;
    const json = /settled (\{.*\})/.exec(text)?.[1];
    return JSON.parse(json ?? '{}') as Record<string, string>;
  }

  test.skipIf(mode.skip !== undefined)("refuses a page's WebSocketStream; an allowed one opens", async () => {
    const before = trap.connections();
    expect(await settled('/holes/stream')).toEqual({
      blocked: 'refused',
      numeric: 'refused',
      echo: 'allowed',
    });
    expect(trap.connections()).toBe(before);
  });

  test.skipIf(mode.skip !== undefined)(
    "Playwright's WebSocket mock internals reach nothing refused",
    async () => {
      const before = trap.connections();
      expect(await settled('/holes/mock')).toEqual({
        apiConnect: 'refused',
        dispatch: 'refused',
        echo: 'allowed',
        native: 'refused',
      });
      expect(trap.connections()).toBe(before);
    },
  );

  test.skipIf(mode.skip !== undefined)(
    'gates a module worker that starts with import.meta or await and imports a data: module',
    async () => {
      const before = trap.connections();
      const result = await settled('/holes/module');
      for (const key of ['meta', 'await'])
        expect(result[key], key).toMatch(/^(SecurityError|worker failed)$/);
      expect(trap.connections()).toBe(before);
    },
  );

  test.skipIf(mode.skip !== undefined)(
    "a service worker's update check installs no ungated script",
    async () => {
      const before = trap.connections();
      // The update fetch never reaches the interceptor, so registration itself is refused.
      expect(await settled('/holes/sw')).toEqual({ registered: 'SecurityError' });
      expect(trap.connections()).toBe(before);
    },
  );
});
