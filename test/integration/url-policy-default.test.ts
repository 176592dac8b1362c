/**
 * The URL policy in the default configuration of each local mode. Chromium
 * bypasses a proxy implicitly for loopback and link-local addresses unless the bypass list says
 * `<-loopback>`; without it a page's request to a loopback alias never reached the guard. Here the
 * configuration stays the default (so the bypass list is what that mode gets) and the policy's check
 * is made to refuse the loopback alias 127.0.0.2: the trap on it must receive nothing, and the guard
 * must have been asked about it. Link-local addresses ride the same implicit rule; they are proven
 * by the bypass list (src/url-policy/guard-bypass.test.ts), never by a request.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, vi } from 'vitest';
import type { Config } from '../../src/config/load.js';
import { UrlPolicy, type Verdict } from '../../src/url-policy/policy.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { startTrap, type Trap } from '../fixtures/lib/trap.mjs';
import { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let trap: Trap;
const asked: string[] = [];

// The file's harness settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  timeoutMs: 30_000,
}));

test.beforeAll(async ({ site: fileSite }) => {
  site = fileSite;
  trap = await startTrap('127.0.0.2');
  const check = UrlPolicy.prototype.check;
  vi.spyOn(UrlPolicy.prototype, 'check').mockImplementation(async function (
    this: UrlPolicy,
    host: string,
    port: number,
    scheme?: string,
  ): Promise<Verdict> {
    asked.push(host);
    if (host === trap.host) return { allowed: false, reason: 'blocked_address' };
    return check.call(this, host, port, scheme);
  });
  const p = trap.port;
  site.route('/form', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>form</title><form><input name=email autocomplete=email>
<input name=password type=password><input name=street autocomplete=street-address><button>go</button></form>`);
  });
  site.route('/default-policy', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>default policy</title><p id="out">pending</p>
<script>
const results = {};
const done = (k, v) => { results[k] = v; if (Object.keys(results).length === 3)
  document.getElementById('out').textContent = 'settled ' + JSON.stringify(results); };
fetch('http://127.0.0.2:${p}/fetch').then(() => done('fetch', 'reached'), () => done('fetch', 'failed'));
const img = new Image(); img.onload = () => done('img', 'reached'); img.onerror = () => done('img', 'failed');
img.src = 'http://2130706434:${p}/img.png';
const ws = new WebSocket('ws://127.0.0.2:${p}/ws');
ws.onopen = () => done('ws', 'reached'); ws.onerror = () => done('ws', 'failed');
</script>`);
  });
});
test.afterAll(async () => {
  vi.restoreAllMocks();
  await trap?.close();
});
afterEach(() => {
  asked.length = 0;
});

const modes: Array<[string, () => Partial<Config>]> = [
  ['stdio defaults', () => ({})],
  ['--http --block-private-network off', () => ({ http: true, blockPrivateNetwork: 'off' })],
  ['--user-data-dir', () => ({ userDataDir: mkdtempSync(join(tmpdir(), 'bm-profile-')) })],
];

describe('URL policy in the default configuration of each mode', () => {
  for (const [mode, overrides] of modes) {
    test(`${mode}: a page's loopback requests go through the guard`, async () => {
      const h = await McpHarness.start({ timeoutMs: 30_000, ...overrides() });
      try {
        const s = await h.session();
        await h.ok('browser_navigate', { ...s, url: site.url('/default-policy') });
        await h.ok('browser_wait', { ...s, text: 'settled', timeoutMs: 15_000 });
        const text = await h.ok<{ text: string }>('browser_visible_text', s);
        expect(text.text).toContain('"fetch":"failed"');
        expect(text.text).toContain('"img":"failed"');
        expect(text.text).toContain('"ws":"failed"');
        expect(trap.connections()).toBe(0);
        expect(asked).toContain(trap.host);
        // An allowed loopback destination is still reached, through the guard.
        expect(
          (await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/quiet') })).status,
        ).toBe(200);
      } finally {
        await h.close();
      }
    });
  }
});

describe('Chromium itself', () => {
  test('sends no autofill-server query for a page with a form', async ({ harness: h }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/form') });
    await h.ok('browser_fill', { ...s, locator: { css: 'input[name=email]' }, value: 'a@example.com' });
    await h.ok('browser_fill', { ...s, locator: { css: 'input[name=street]' }, value: '1 Main St' });
    await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
    // Every connection of the browser reached the guard; none went anywhere but the fixture.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((host) => host !== '127.0.0.1')).toEqual([]);
  });
});
