import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { fileShell, refOf } from './cli-face-support.js';

// Session state and text selection on the shell face: find, cookies, storage, routes, emulation and text
// selection as spawned `browsermesh` commands against the fixture site on loopback.

let site: FixtureServer;
/** One daemon for the file (127.0.0.2 blocked, a loopback alias); each test ends with its sessions closed. */
const daemon = fileShell({ BROWSERMESH_BLOCKED_ADDRESSES: '127.0.0.2/32' });

beforeAll(async () => {
  site = await startFixtureServer();
});
afterEach(async () => {
  await daemon.reset();
});
afterAll(async () => {
  await daemon.stop();
  await site.close();
});

/** A page that prints what it sees of the colour scheme (page JavaScript, not the agent's). */
const SCHEME_PAGE =
  '<title>Scheme</title><p id="s"></p><script>document.getElementById("s").textContent = "scheme: " + (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light")</script>';

describe('browsermesh find, cookies, storage, route, emulate, select-text', () => {
  it('walks find → click, cookie-set → cookie-list, route → fulfilled page, emulate → dark', async () => {
    const sh = daemon.get();
    const { bm } = sh;
    expect((await bm(['open', `${site.origin}/shop/product/2`])).status).toBe(0);

    const found = await bm(['find', 'Add to cart']);
    expect(found.status).toBe(0);
    expect(found.stdout).toMatch(/^1 match:/);
    const clicked = await bm(['click', refOf(found.stdout, 'button', 'Add to cart')]);
    expect(clicked.status, clicked.stderr).toBe(0);
    expect(clicked.stdout).toContain('"navigation":true');
    expect((await bm(['find', '--role', 'link', '--name', 'Cart (1)'])).stdout).toContain('Cart (1)');

    // Without --domain the cookie is for the current tab's URL; a credential-named value is redacted.
    expect((await bm(['cookie-set', 'session_token', 'tok-5521-secret', '--httpOnly'])).status).toBe(0);
    expect((await bm(['cookie-set', 'theme', 'dark'])).status).toBe(0);
    const listed = await bm(['cookie-list', '--domain', '127.0.0.1']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('"name":"session_token"');
    expect(listed.stdout).toContain('[redacted]');
    expect(listed.stdout).toContain('"value":"dark"');
    expect(listed.stdout).not.toContain('tok-5521-secret');
    expect((await bm(['cookie-get', 'session_token'])).stdout).toContain('tok-5521-secret');
    expect((await bm(['localstorage-set', 'step', 'two'])).status).toBe(0);
    expect((await bm(['localstorage-get', 'step', '--json'])).stdout).toContain('"value":"two"');

    const routed = await bm(['route', '**/cli-mocked', '--body', SCHEME_PAGE, '--content-type', 'text/html']);
    expect(routed.status, routed.stderr).toBe(0);
    expect((await bm(['goto', `${site.origin}/cli-mocked`])).status).toBe(0);
    expect((await bm(['text'])).stdout).toContain('scheme: light');

    expect((await bm(['emulate', '--color-scheme', 'dark'])).stdout).toContain('colorScheme');
    expect((await bm(['reload'])).status).toBe(0);
    expect((await bm(['text'])).stdout).toContain('scheme: dark');

    expect((await bm(['route-list'])).stdout).toMatch(/"url":"\*\*\/cli-mocked".*"hits":2/);
    expect((await bm(['unroute', '**/cli-mocked'])).stdout).toContain('"removed":1');
    expect((await bm(['route-list'])).stdout).not.toContain('cli-mocked');
  });

  it('selects text in a contenteditable, and refuses bad commands with exit status 2 or 1', async () => {
    const sh = daemon.get();
    const { bm } = sh;
    expect((await bm(['open', `${site.origin}/widgets/editable`])).status).toBe(0);
    const selected = await bm(['select-text', '--css', '#para', 'brown', '--occurrence', '2']);
    expect(selected.status, selected.stderr).toBe(0);
    expect((await bm(['press', 'Control+b'])).status).toBe(0);
    expect((await bm(['run', "return await page.locator('#para b').allTextContents();"])).stdout).toContain(
      '["brown"]',
    );

    const usage = await bm(['emulate', '--network', '2g']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^USAGE: emulate: --network/);
    expect((await bm(['find'])).status).toBe(2);
    // A tool's refusal of its arguments is a usage error too (2); a page error is 1.
    const absent = await bm(['select-text', '--css', '#para', 'cat']);
    expect(absent.status).toBe(2);
    expect(absent.stderr).toMatch(/^INVALID_ARGUMENT: .*selectText/);
    const gone = await bm(['select-text', '@e999', 'brown']);
    expect(gone.status).toBe(1);
    // The URL policy applies: a loopback alias configured as blocked stands in for a blocked host.
    const blocked = await bm(['cookie-set', 'a', 'b', '--domain', '127.0.0.2']);
    expect(blocked.status).toBe(2);
    expect(blocked.stderr).toMatch(/^INVALID_ARGUMENT: /);
    const port = new URL(site.origin).port;
    const blockedRoute = await bm(['route', `http://127.0.0.2:${port}/x`, '--body', 'x']);
    expect(blockedRoute.status).toBe(2);
    expect((await bm(['find', 'quick'])).stdout).toMatch(/^1 match:/);
  });
});
