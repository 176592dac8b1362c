import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { alive, descendants, waitFor } from './cli-helpers.js';
import { shell, type Shell } from './cli-face-support.js';

// The shell face's per-user daemon — started by the first command, private, replaced
// when a crash left its socket behind, stopped by command or by idleness, its browser with it.

let site: FixtureServer;
const shells: Shell[] = [];
const open = (env: Record<string, string> = {}): Shell => {
  const sh = shell(env);
  shells.push(sh);
  return sh;
};

beforeAll(async () => {
  site = await startFixtureServer();
});
afterEach(async () => {
  await Promise.all(shells.splice(0).map((sh) => sh.cleanup()));
});
afterAll(async () => {
  await site.close();
});

describe('the shell face daemon', async () => {
  it('is started by the first command in a private folder and stopped by `daemon stop` with its browser', async () => {
    const sh = open();
    expect((await sh.bm(['daemon', 'status'])).stdout).toContain('daemon not running');
    expect((await sh.bm(['open', `${site.origin}/shop/`])).status).toBe(0);
    const pid = sh.daemonPid();
    expect(pid).toBeGreaterThan(0);
    expect(statSync(join(sh.dataDir, 'cli')).mode & 0o777).toBe(0o700);
    expect(statSync(join(sh.dataDir, 'cli', 'daemon.sock')).mode & 0o777).toBe(0o600);
    expect((await sh.bm(['daemon', 'status'])).stdout).toMatch(
      new RegExp(`^daemon running: pid ${pid}, 1 session`),
    );
    const browser = descendants(pid ?? 0);
    expect(browser.length).toBeGreaterThan(0);
    expect((await sh.bm(['daemon', 'stop'])).status).toBe(0);
    expect(await waitFor(() => !alive(pid ?? 0))).toBe(true);
    expect(await waitFor(() => browser.every((child) => !alive(child)))).toBe(true);
    expect(existsSync(join(sh.dataDir, 'cli', 'daemon.sock'))).toBe(false);
    expect(existsSync(join(sh.dataDir, 'cli', 'daemon.pid'))).toBe(false);
  });

  it('replaces a socket and pid file a crashed daemon left behind', async () => {
    const sh = open();
    const dir = join(sh.dataDir, 'cli');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A listener killed with SIGKILL leaves its socket file: nobody answers it any more.
    const crashed = spawn(
      process.execPath,
      [
        '-e',
        `require('net').createServer().listen(${JSON.stringify(join(dir, 'daemon.sock'))}, () => console.log('up'))`,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    await new Promise((resolve) => crashed.stdout.once('data', resolve));
    crashed.kill('SIGKILL');
    await waitFor(() => crashed.exitCode !== null || crashed.signalCode !== null);
    writeFileSync(join(dir, 'daemon.pid'), `${crashed.pid ?? 1}\n`);
    expect(existsSync(join(dir, 'daemon.sock'))).toBe(true);
    const opened = await sh.bm(['open', `${site.origin}/shop/`]);
    expect(opened.status).toBe(0);
    expect(sh.daemonPid()).not.toBe(crashed.pid);
    expect((await sh.bm(['url'])).stdout).toContain('/shop/');
  });

  it('exits after its idle time, closing its sessions', async () => {
    const sh = open({ BROWSERMESH_DAEMON_IDLE_MS: '1500' });
    expect((await sh.bm(['open', `${site.origin}/shop/`])).status).toBe(0);
    const pid = sh.daemonPid() ?? 0;
    const browser = descendants(pid);
    expect(await waitFor(() => !alive(pid), 30_000)).toBe(true);
    expect(await waitFor(() => browser.every((child) => !alive(child)))).toBe(true);
    expect(existsSync(join(sh.dataDir, 'cli', 'daemon.sock'))).toBe(false);
    // The next command starts a new one.
    expect((await sh.bm(['open'])).status).toBe(0);
  });

  it('closes its browser when the last session closes, and opens a new one for the next', async () => {
    const sh = open({ BROWSERMESH_DAEMON_GRACE_MS: '600000' });
    expect((await sh.bm(['open', `${site.origin}/shop/`])).status).toBe(0);
    const pid = sh.daemonPid() ?? 0;
    const browser = descendants(pid);
    expect(browser.length).toBeGreaterThan(0);
    expect((await sh.bm(['close'])).status).toBe(0);
    // The browser goes at once; the daemon itself waits out its grace.
    expect(await waitFor(() => browser.every((child) => !alive(child)))).toBe(true);
    expect(alive(pid)).toBe(true);
    const status = (await sh.bm(['daemon', 'status'])).stdout;
    expect(status).toContain('0 session(s), exits 600 s after the last session closed');
    expect(status).toContain('browser: idle');
    // A command within the grace keeps the daemon and gets a new browser.
    expect((await sh.bm(['open', `${site.origin}/shop/`])).status).toBe(0);
    expect(sh.daemonPid()).toBe(pid);
    expect((await sh.bm(['daemon', 'status'])).stdout).toMatch(
      /1 session\(s\) \(default: 1 tab\(s\)\), idle exit after 1800 s\nbrowser: ready/,
    );
  });

  it('exits after the short grace once the last session closed, leaving no browser', async () => {
    const sh = open({ BROWSERMESH_DAEMON_GRACE_MS: '500' });
    expect((await sh.bm(['open', `${site.origin}/shop/`])).status).toBe(0);
    const pid = sh.daemonPid() ?? 0;
    const browser = descendants(pid);
    expect((await sh.bm(['close'])).status).toBe(0);
    expect(await waitFor(() => !alive(pid), 30_000)).toBe(true);
    expect(browser.every((child) => !alive(child))).toBe(true);
    expect(existsSync(join(sh.dataDir, 'cli', 'daemon.sock'))).toBe(false);
  });

  it('installs the skill where each agent looks', async () => {
    const sh = open();
    const claude = await sh.bm(['skill', 'install']);
    expect(claude.stdout.trim()).toBe(join(sh.home, '.claude/skills/browsermesh/SKILL.md'));
    expect(readFileSync(claude.stdout.trim(), 'utf8')).toMatch(/^---\nname: browsermesh\n/);
    expect(existsSync(join(sh.home, '.claude/skills/browsermesh/references/sessions.md'))).toBe(true);
    expect((await sh.bm(['skill', 'install', '--target', 'codex'])).stdout.trim()).toBe(
      join(sh.home, '.agents/skills/browsermesh/SKILL.md'),
    );
    expect(
      (await sh.bm(['skill', 'install', '--target', 'dir', '--dir', join(sh.home, 'x')])).stdout.trim(),
    ).toBe(join(sh.home, 'x/browsermesh/SKILL.md'));
    expect((await sh.bm(['skill', 'install', '--target', 'vim'])).status).toBe(2);
    expect(sh.daemonPid()).toBeUndefined();
  });
});
