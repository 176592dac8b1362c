/**
 * The cdp provider against a second Chromium this test starts with --remote-debugging-port on
 * 127.0.0.1: isolated sessions on it, placement without credentials, and a shutdown that only
 * disconnects — BrowserMesh never kills a process it did not start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/load.js';
import { safeEndpoint } from '../../src/engine/providers/cdp.js';
import { PerSessionCdpProvider } from '../../src/engine/providers/cdp-per-session.js';
import { createProvider } from '../../src/engine/providers/index.js';
import { findChromium } from '../../src/engine/providers/find-chromium.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';

interface RemoteChromium {
  process: ChildProcess;
  /** http://127.0.0.1:PORT */
  httpEndpoint: string;
  userDataDir: string;
}

describe('cdp provider (a remote-debugging Chromium on 127.0.0.1)', () => {
  let remote: RemoteChromium;
  let site: FixtureServer;

  beforeAll(async () => {
    [remote, site] = await Promise.all([startRemoteChromium(), startFixtureServer()]);
  }, 60_000);

  afterAll(async () => {
    if (remote) await stopRemoteChromium(remote);
    await site?.close();
  });

  it('runs isolated sessions on the remote browser and leaves it running on shutdown', async () => {
    const config = defaultConfig({ provider: 'cdp', cdpEndpoint: remote.httpEndpoint, timeoutMs: 30_000 });
    const mesh = new BrowserMesh({ config });
    const [a, b] = await Promise.all([mesh.createSession({ name: 'a' }), mesh.createSession({ name: 'b' })]);
    expect(a.session.placement).toEqual({ provider: 'cdp', node: remote.httpEndpoint });
    expect(mesh.runtimeInfo().browser).toMatchObject({
      provider: 'cdp',
      state: 'ready',
      endpoint: remote.httpEndpoint,
    });

    // A cookie set in one session is invisible in the other: each has its own context.
    const cookieOf = (sessionId: string, pageId: string, set?: string): Promise<string> =>
      mesh.runOnPage(sessionId, pageId, 'cookie', async ({ page }) => {
        await page.page.goto(site.url('/shop/'));
        if (set) await page.page.evaluate((value) => (document.cookie = value), set);
        return page.page.evaluate(() => document.cookie);
      });
    expect(await cookieOf(a.session.sessionId, a.initialPage.pageId, 'who=a')).toContain('who=a');
    expect(await cookieOf(b.session.sessionId, b.initialPage.pageId)).not.toContain('who=a');

    await mesh.shutdown();
    expect(mesh.getSession(a.session.sessionId).state).toBe('closed');
    expect(remote.process.exitCode).toBeNull();
    expect(remote.process.signalCode).toBeNull();
    const version = await fetch(`${remote.httpEndpoint}/json/version`);
    expect(version.ok).toBe(true);
  });

  it('mints one endpoint and one connection per session from a function or a {session} template', async () => {
    const minted: string[] = [];
    const provider = new PerSessionCdpProvider({
      mint: async () => {
        minted.push(remote.httpEndpoint);
        return remote.httpEndpoint;
      },
    });
    const mesh = new BrowserMesh({ config: defaultConfig({ timeoutMs: 30_000 }), provider });
    const a = await mesh.createSession({ name: 'a' });
    const b = await mesh.createSession({ name: 'b' });
    expect(minted).toHaveLength(2);
    expect(mesh.getSession(a.session.sessionId).browserLease?.browser).not.toBe(
      mesh.getSession(b.session.sessionId).browserLease?.browser,
    );
    await mesh.closeSession(a.session.sessionId);
    // Closing one session only dropped its own connection.
    expect(
      await mesh.runOnPage(b.session.sessionId, b.initialPage.pageId, 'title', async ({ page }) =>
        page.page.title(),
      ),
    ).toBe('');
    await mesh.shutdown();
    expect(remote.process.exitCode).toBeNull();

    const templated = createProvider(
      defaultConfig({ provider: 'cdp', cdpEndpoint: `${remote.httpEndpoint}/?slot={session}` }),
    );
    expect(templated).toBeInstanceOf(PerSessionCdpProvider);
    const viaTemplate = new BrowserMesh({
      config: defaultConfig({ timeoutMs: 30_000 }),
      provider: templated,
    });
    const c = await viaTemplate.createSession();
    expect(c.session.placement).toEqual({ provider: 'cdp', node: remote.httpEndpoint });
    await viaTemplate.shutdown();

    const broken = new BrowserMesh({
      config: defaultConfig(),
      provider: new PerSessionCdpProvider({ mint: () => 'not a url' }),
    });
    await expect(broken.createSession()).rejects.toMatchObject({
      code: 'BROWSER_ERROR',
      details: { reason: 'cdp_mint_invalid' },
    });
    await broken.shutdown();
  });

  it('shows only scheme, host and port of an endpoint', () => {
    expect(safeEndpoint('wss://user:secret@cdp.example:9222/devtools/browser/x?token=abc')).toBe(
      'wss://cdp.example:9222',
    );
    expect(safeEndpoint('not a url')).toBe('(invalid endpoint)');
  });
});

async function startRemoteChromium(): Promise<RemoteChromium> {
  const chromium = findChromium('');
  if (!chromium) throw new Error('no Chromium found for the cdp provider test');
  const userDataDir = await mkdtemp(join(tmpdir(), 'bm-cdp-'));
  const child = spawn(
    chromium.path,
    [
      '--headless',
      '--no-sandbox',
      '--remote-debugging-port=0',
      '--remote-debugging-address=127.0.0.1',
      `--user-data-dir=${userDataDir}`,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-dev-shm-usage',
      '--no-first-run',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // Should the test process end without afterAll (a timed-out hook), this Chromium must not outlive it.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const wsEndpoint = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error('Chromium did not print its DevTools endpoint')), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', () => reject(new Error('Chromium exited before listening')));
  });
  return { process: child, httpEndpoint: `http://${new URL(wsEndpoint).host}`, userDataDir };
}

/** This test started the process, so this test (and only this test) ends it. */
async function stopRemoteChromium(remote: RemoteChromium): Promise<void> {
  const child = remote.process;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  await rm(remote.userDataDir, { recursive: true, force: true });
}
