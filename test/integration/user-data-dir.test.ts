import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { CHROMIUM, McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';
import { probePage, type Probe } from './support/probe.js';

// `--user-data-dir` — one persistent Chromium profile shared by every session, kept across
// server runs; refused where it cannot work; a second server on the same folder fails clearly.

let site: FixtureServer;
const root = mkdtempSync(join(tmpdir(), 'bm-profile-'));

// The site is the file's; every server here is one of its own, on a persistent profile of its own.
test.beforeAll(({ site: fileSite }) => {
  site = fileSite;
  site.route('/probe', probePage);
  site.route('/remember', (_req, res) => {
    // A cookie with an expiry: session cookies are not kept across runs by any browser.
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'set-cookie': 'bm_profile=kept; Max-Age=3600; Path=/',
    });
    res.end(
      '<!doctype html><title>remember</title><script>localStorage.setItem("bm", "stored")</script><p>set</p>',
    );
  });
  site.route('/stored', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><title>stored</title><body><script>document.body.textContent = "value:" + localStorage.getItem("bm")</script>',
    );
  });
  site.route('/opener', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>opener</title><button onclick="window.open(\'/probe\')">open</button>');
  });
});

function configFrom(argv: string[], env: Record<string, string> = {}): Config {
  // A generous deadline: a launch on the loaded 2-core machine can take longer than the default.
  return loadConfig(['--executable-path', CHROMIUM, '--timeout', '30000', ...argv], env).config;
}

function configErrorOf(argv: string[], env: Record<string, string> = {}): ConfigError {
  try {
    loadConfig(argv, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

async function probe(h: McpHarness, page: { sessionId: string; pageId: string }): Promise<Probe> {
  await h.ok('browser_navigate', { ...page, url: site.url('/probe') });
  const { text } = await h.ok<{ text: string }>('browser_visible_text', page);
  return JSON.parse(text) as Probe;
}

async function storedValue(h: McpHarness, page: { sessionId: string; pageId: string }): Promise<string> {
  await h.ok('browser_navigate', { ...page, url: site.url('/stored') });
  return (await h.ok<{ text: string }>('browser_visible_text', page)).text;
}

describe('--user-data-dir validation', () => {
  test('refuses a path that is a file, naming its source, in flags, env and the config file', () => {
    const file = join(root, 'not-a-folder');
    writeFileSync(file, 'x');
    expect(configErrorOf(['--user-data-dir', file]).source).toBe('--user-data-dir');
    expect(configErrorOf([], { BROWSERMESH_USER_DATA_DIR: file }).source).toBe('BROWSERMESH_USER_DATA_DIR');
    const configFile = join(root, 'bm.json');
    writeFileSync(configFile, JSON.stringify({ userDataDir: file }));
    const fromFile = configErrorOf(['--config', configFile]);
    expect(fromFile.source).toBe('config file: userDataDir');
    expect(fromFile.message).not.toContain(file);
  });

  test('refuses a folder that cannot be created and control characters', () => {
    const under = join(root, 'not-a-folder', 'profile');
    expect(configErrorOf(['--user-data-dir', under]).message).toMatch(/cannot be created/);
    expect(configErrorOf(['--user-data-dir', `${root}/a\u0007b`]).source).toBe('--user-data-dir');
  });

  test('refuses remote providers and a storageState file beside it', () => {
    const dir = join(root, 'valid');
    const cdp = configErrorOf(['--user-data-dir', dir, '--cdp-endpoint', 'http://127.0.0.1:9']);
    expect(cdp.source).toBe('--user-data-dir');
    expect(cdp.message).toMatch(/local provider/);
    const grid = configErrorOf(['--user-data-dir', dir, '--selenium-url', 'http://127.0.0.1:9']);
    expect(grid.message).toMatch(/local provider/);
    const state = join(root, 'state.json');
    writeFileSync(state, JSON.stringify({ cookies: [], origins: [] }));
    expect(configErrorOf(['--user-data-dir', dir, '--storage-state', state]).source).toBe('--storage-state');
    // Several principals on one HTTP server would share one profile's logins.
    const tokens = join(root, 'tokens');
    writeFileSync(tokens, 'alice aaaaaaaaaaaaaaaaaaaa\nbob bbbbbbbbbbbbbbbbbbbbbb\n');
    const principals = configErrorOf(['--user-data-dir', dir, '--http', '--tokens-file', tokens]);
    expect(principals.source).toBe('--user-data-dir');
    expect(principals.message).toMatch(/tokens-file/);
  });

  test('accepts a missing folder under a writable parent, `~`-relative and relative paths as absolute', () => {
    expect(configFrom(['--user-data-dir', join(root, 'new', 'profile')]).userDataDir).toBe(
      join(root, 'new', 'profile'),
    );
    expect(configFrom(['--user-data-dir', '~/bm-profile']).userDataDir).toMatch(/^\/.*bm-profile$/);
    expect(configFrom(['--user-data-dir', 'rel-profile']).userDataDir).toBe(
      join(process.cwd(), 'rel-profile'),
    );
  });
});

describe('sessions sharing one persistent profile', () => {
  const dir = join(root, 'shared');
  let h: McpHarness;
  test.beforeAll(async () => {
    h = await McpHarness.start(configFrom(['--user-data-dir', dir]));
  });
  test.afterAll(async () => {
    await h?.close();
  });

  test('shows what one session sets to every other session, live', async () => {
    const a = await h.session();
    const b = await h.session();
    await h.ok('browser_navigate', { ...a, url: site.url('/remember') });
    expect((await probe(h, b)).cookie).toContain('bm_profile=kept');
    expect(await storedValue(h, b)).toBe('value:stored');
    // Closing one session closes its pages only; the other keeps working on the same profile.
    await h.ok('browser_session_close', { sessionId: a.sessionId });
    expect((await probe(h, b)).cookie).toContain('bm_profile=kept');
    await h.ok('browser_session_close', { sessionId: b.sessionId });
  });

  test("keeps each session's pages its own: a popup belongs to the session whose page opened it", async () => {
    const a = await h.session();
    const b = await h.session();
    await h.ok('browser_navigate', { ...a, url: site.url('/opener') });
    await h.ok('browser_action_and_wait', {
      ...a,
      target: { locator: { role: 'button', name: 'open' } },
      waitFor: { kind: 'popup' },
    });
    const pagesOfA = await h.ok<{ pages: unknown[] }>('browser_page_list', { sessionId: a.sessionId });
    const pagesOfB = await h.ok<{ pages: unknown[] }>('browser_page_list', { sessionId: b.sessionId });
    expect(pagesOfA.pages).toHaveLength(2);
    expect(pagesOfB.pages).toHaveLength(1);
    await h.ok('browser_session_close', { sessionId: a.sessionId });
    await h.ok('browser_session_close', { sessionId: b.sessionId });
  });

  test('gives a session its own viewport and refuses what only a whole context can have', async () => {
    const sized = await h.session({ contextSettings: { viewport: { width: 500, height: 400 } } });
    expect(await probe(h, sized)).toMatchObject({ width: 500, height: 400 });
    const other = await h.session();
    expect(await probe(h, other)).toMatchObject({ width: 1280, height: 720 });
    for (const contextSettings of [{ locale: 'fr-FR' }, { device: 'Pixel 5' }, { trace: true }]) {
      const refused = await h.err('browser_session_create', { contextSettings });
      expect(refused.code).toBe('NOT_SUPPORTED');
      expect(refused.details).toMatchObject({ reason: 'shared_profile' });
    }
    await h.ok('browser_session_close', { sessionId: sized.sessionId });
    await h.ok('browser_session_close', { sessionId: other.sessionId });
  });

  test('refuses a second server on the same folder quickly and clearly, and the first keeps serving', async () => {
    const page = await h.session();
    const second = await McpHarness.start(configFrom(['--user-data-dir', dir, '--no-warm-up']));
    try {
      const started = Date.now();
      const refused = await second.err('browser_session_create', {});
      expect(refused.code).toBe('BROWSER_ERROR');
      expect(refused.details).toMatchObject({ reason: 'profile_in_use' });
      expect(JSON.stringify(refused)).not.toContain(dir);
      // No hang up to the deadline: the lock is seen before (or as) Chromium starts.
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await second.close();
    }
    expect((await probe(h, page)).cookie).toContain('bm_profile=kept');
    await h.ok('browser_session_close', { sessionId: page.sessionId });
  });
});

describe('the profile across server runs', () => {
  test('starts the next run on the same folder with the cookies and storage the last one left', async () => {
    const dir = join(root, 'runs');
    const first = await McpHarness.start(configFrom(['--user-data-dir', dir]));
    try {
      const page = await first.session();
      await first.ok('browser_navigate', { ...page, url: site.url('/remember') });
    } finally {
      await first.close();
    }
    const next = await McpHarness.start(configFrom(['--user-data-dir', dir]));
    try {
      const page = await next.session();
      expect((await probe(next, page)).cookie).toContain('bm_profile=kept');
      expect(await storedValue(next, page)).toBe('value:stored');
    } finally {
      await next.close();
    }
    // A fresh folder starts empty: the state came from the profile, not from anywhere else.
    const fresh = await McpHarness.start(configFrom(['--user-data-dir', join(root, 'fresh')]));
    try {
      const page = await fresh.session();
      expect((await probe(fresh, page)).cookie).not.toContain('bm_profile');
    } finally {
      await fresh.close();
    }
  });
});

describe('the profile browser dying', () => {
  /** Chromium processes started by this test worker (each test file runs in its own process). */
  function chromiumChildren(): number[] {
    const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
    return out
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, comm]) => comm !== undefined && /chrom/i.test(comm))
      .map(([pid]) => Number(pid));
  }

  test('fails the live sessions, never silently recreates them, and relaunches on the same folder', async () => {
    const h = await McpHarness.start(configFrom(['--user-data-dir', join(root, 'crash'), '--no-warm-up']));
    try {
      const a = await h.session();
      const b = await h.session();
      await h.ok('browser_navigate', { ...a, url: site.url('/remember') });
      const pids = chromiumChildren();
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      let states: string[] = [];
      const allFailed = (): boolean => states.length === 2 && states.every((s) => s === 'failed');
      for (let i = 0; i < 500 && !allFailed(); i++) {
        const list = await h.ok<{ sessions: Array<{ state: string }> }>('browser_session_list');
        states = list.sessions.map((s) => s.state);
        if (!allFailed()) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(states).toEqual(['failed', 'failed']);
      expect((await h.err('browser_get_url', b)).code).toBe('BROWSER_DISCONNECTED');
      // The lock the killed Chromium left behind is stale (its process is gone): the launch goes ahead.
      const fresh = await h.session();
      expect((await probe(h, fresh)).width).toBe(1280);
    } finally {
      await h.close();
    }
  });
});
