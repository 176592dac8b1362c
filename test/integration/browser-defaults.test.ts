import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { CHROMIUM, McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { probePage, startSelfSignedServer, type Probe } from './support/probe.js';

// Server-wide browser defaults (flags, env, --config file) and per-session device presets,
// checked through the official MCP client against what the page itself reports.

let site: FixtureServer;
let tls: { url: string; close(): Promise<void> };
const dir = mkdtempSync(join(tmpdir(), 'bm-defaults-'));

// The file's harness settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  maxSessions: 4,
}));

test.beforeAll(async ({ site: fileSite }) => {
  site = fileSite;
  site.route('/probe', probePage);
  tls = await startSelfSignedServer();
});
test.afterAll(async () => {
  await tls?.close();
});

/** A config as the CLI builds it from these flags and this environment. */
function configFrom(argv: string[], env: Record<string, string> = {}): Partial<Config> {
  return loadConfig(['--executable-path', CHROMIUM, '--data-dir', dir, ...argv], env).config;
}

async function probe(h: McpHarness, args: Record<string, unknown> = {}): Promise<Probe> {
  const { sessionId, pageId } = await h.session(args);
  await h.ok('browser_navigate', { sessionId, pageId, url: site.url('/probe') });
  const { text } = await h.ok<{ text: string }>('browser_visible_text', { sessionId, pageId });
  await h.ok('browser_session_close', { sessionId });
  return JSON.parse(text) as Probe;
}

describe('per-session device presets (contextSettings.device)', () => {
  let h: McpHarness;
  test.beforeAll(({ harness }) => {
    h = harness;
  });

  test('emulates a playwright-core device: viewport, DPR, touch, mobile user agent', async () => {
    const seen = await probe(h, { contextSettings: { device: 'Pixel 5' } });
    expect(seen).toMatchObject({ width: 393, height: 727, dpr: 2.75 });
    expect(seen.touchPoints).toBeGreaterThan(0);
    expect(seen.userAgent).toContain('Pixel 5');
    expect(seen.serverUserAgent).toContain('Pixel 5');
  });

  test('lets fields given beside the device win, and reports the effective settings', async () => {
    const created = await h.ok<{ session: { sessionId: string; contextSettings: Record<string, unknown> } }>(
      'browser_session_create',
      { contextSettings: { device: 'iPhone 13', viewport: { width: 400, height: 500 } } },
    );
    expect(created.session.contextSettings).toMatchObject({
      device: 'iPhone 13',
      viewport: { width: 400, height: 500 },
      isMobile: true,
      hasTouch: true,
    });
    await h.ok('browser_session_close', { sessionId: created.session.sessionId });
    const seen = await probe(h, {
      contextSettings: { device: 'iPhone 13', viewport: { width: 400, height: 500 } },
    });
    expect(seen).toMatchObject({ width: 400, height: 500, dpr: 3 });
    expect(seen.userAgent).toContain('iPhone');
  });

  test('refuses an unknown device with INVALID_ARGUMENT, never echoing it, and keeps serving', async () => {
    for (const device of ['Pixel 5000 Secret', '', 'x'.repeat(300), 'pixel 5']) {
      const error = await h.err('browser_session_create', { contextSettings: { device } });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details?.field).toBe('contextSettings.device');
      if (device.length > 0) expect(JSON.stringify(error)).not.toContain(device);
    }
    const wrongType = await h.err('browser_session_create', { contextSettings: { device: 5 } });
    expect(wrongType.code).toBe('INVALID_ARGUMENT');
    const seen = await probe(h);
    expect(seen).toMatchObject({ width: 1280, height: 720, dpr: 1 });
  });

  test('refuses a self-signed certificate by default and accepts it with ignoreHttpsErrors', async () => {
    const strict = await h.session();
    const refused = await h.err('browser_navigate', { ...strict, url: tls.url });
    expect(refused.code).toBe('NAVIGATION_FAILED');
    const lax = await h.session({ contextSettings: { ignoreHttpsErrors: true } });
    const loaded = await h.ok<{ title: string }>('browser_navigate', { ...lax, url: tls.url });
    expect(loaded.title).toBe('tls ok');
    await h.ok('browser_session_close', { sessionId: strict.sessionId });
    await h.ok('browser_session_close', { sessionId: lax.sessionId });
  });
});

describe('server-wide defaults from flags, env and a --config file', () => {
  let h: McpHarness;
  const initScript = join(dir, 'init.js');
  const stateFile = join(dir, 'state.json');
  const configFile = join(dir, 'browsermesh.json');

  test.beforeAll(async () => {
    writeFileSync(initScript, "window.__bmInit = 'ran';");
    const origin = new URL(site.origin);
    writeFileSync(
      stateFile,
      JSON.stringify({
        cookies: [
          {
            name: 'fromfile',
            value: '1',
            domain: origin.hostname,
            path: '/',
            expires: -1,
            httpOnly: false,
            secure: false,
            sameSite: 'Lax',
          },
        ],
        origins: [],
      }),
    );
    writeFileSync(
      configFile,
      JSON.stringify({ device: 'Pixel 5', locale: 'de-DE', timeoutMs: 20000, maxSessions: 4 }),
    );
    const config = configFrom(
      [
        '--config',
        configFile,
        '--timezone',
        'Asia/Tokyo',
        '--init-script',
        initScript,
        '--storage-state',
        stateFile,
        '--ignore-https-errors',
      ],
      { BROWSERMESH_EXTRA_HTTP_HEADERS: JSON.stringify({ 'X-BM-Test': 'from-env' }) },
    );
    h = await McpHarness.start(config);
  });
  test.afterAll(async () => {
    await h?.close();
  });

  test('gives every session the defaults', async () => {
    const seen = await probe(h);
    expect(seen).toMatchObject({
      width: 393,
      dpr: 2.75,
      language: 'de-DE',
      timeZone: 'Asia/Tokyo',
      init: 'ran',
      header: 'from-env',
    });
    expect(seen.userAgent).toContain('Pixel 5');
    expect(seen.cookie).toContain('fromfile=1');
    const loaded = await (async () => {
      const page = await h.session();
      const result = await h.ok<{ title: string }>('browser_navigate', { ...page, url: tls.url });
      await h.ok('browser_session_close', { sessionId: page.sessionId });
      return result;
    })();
    expect(loaded.title).toBe('tls ok');
  });

  test("lets a session's own settings win: its device replaces the server's", async () => {
    const seen = await probe(h, { contextSettings: { device: 'Desktop Chrome', locale: 'fr-FR' } });
    expect(seen).toMatchObject({ width: 1280, height: 720, dpr: 1, language: 'fr-FR', touchPoints: 0 });
    expect(seen.userAgent).not.toContain('Pixel');
    // Operator-only defaults still apply.
    expect(seen).toMatchObject({ timeZone: 'Asia/Tokyo', init: 'ran', header: 'from-env' });
  });

  test('never reports the operator-only options back', async () => {
    const created = await h.ok<{ session: { sessionId: string } }>('browser_session_create', {});
    const got = await h.ok('browser_session_get', { sessionId: created.session.sessionId });
    const text = JSON.stringify(got);
    expect(text).not.toContain('from-env');
    expect(text).not.toContain(initScript);
    expect(text).not.toContain(stateFile);
    await h.ok('browser_session_close', { sessionId: created.session.sessionId });
  });
});

describe('--viewport-size and --user-agent', () => {
  test('set the viewport and user agent of every session', async () => {
    const h = await McpHarness.start(
      configFrom(['--viewport-size', '640x480', '--user-agent', 'BM-Agent/1.0']),
    );
    try {
      const seen = await probe(h);
      expect(seen).toMatchObject({
        width: 640,
        height: 480,
        userAgent: 'BM-Agent/1.0',
        serverUserAgent: 'BM-Agent/1.0',
      });
      const created = await h.ok<{ session: { contextSettings: Record<string, unknown> } }>(
        'browser_session_create',
        {},
      );
      expect(created.session.contextSettings).toMatchObject({ viewport: { width: 640, height: 480 } });
    } finally {
      await h.close();
    }
  });
});
