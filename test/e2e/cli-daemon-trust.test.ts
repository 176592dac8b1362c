import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { alive, CLI, waitFor } from './cli-helpers.js';
import { shell, type Shell } from './cli-face-support.js';

// The shell client trusts only a daemon folder and socket of its own user that nobody else can write,
// and writes a file only where its command line asked; of daemons started at once for one data
// directory, one serves and the others exit before launching a browser (docs/security.md, "The shell
// daemon and other local users").

let site: FixtureServer;
const shells: Shell[] = [];
const servers: Server[] = [];
const children: ChildProcess[] = [];
const open = (env: Record<string, string> = {}): Shell => {
  const sh = shell(env);
  shells.push(sh);
  return sh;
};

beforeAll(async () => {
  site = await startFixtureServer();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(shells.splice(0).map((sh) => sh.cleanup()));
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await site.close();
});

/** Runs the built CLI in `cwd` to completion. */
function run(
  env: Record<string, string>,
  args: string[],
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A listener on `path` that answers every request line with `answer(request)`. */
async function fakeDaemon(
  path: string,
  answer: (request: Record<string, unknown>) => unknown,
): Promise<void> {
  const server = createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end >= 0) socket.end(`${JSON.stringify(answer(JSON.parse(buffer.slice(0, end))))}\n`);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
}

/** The processes whose environment carries `tag` (a daemon and the browser it launched). */
function tagged(tag: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(tag))
        found.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

const commandOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return '';
  }
};

describe('the shell client trusts only its own private daemon', () => {
  it('refuses a daemon folder others may write, and starts nothing', async () => {
    const sh = open();
    const dir = join(sh.dataDir, 'cli');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    const refused = await sh.bm(['open', `${site.origin}/shop/`]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^DAEMON_UNTRUSTED: /);
    expect(refused.stderr).toContain(`${dir} is writable by other users (mode 777)`);
    expect(refused.stderr).toMatch(/\nhint: /);
    expect(sh.daemonPid()).toBeUndefined();
    expect(existsSync(join(dir, 'daemon.sock'))).toBe(false);
    // The daemon itself refuses the folder too, if started by hand.
    const daemon = await run(sh.env, ['daemon', 'run'], sh.home);
    expect(daemon.status).toBe(1);
    expect(daemon.stderr).toContain(`DAEMON_UNTRUSTED: ${dir} is writable by other users`);
    // Made private, the same command starts the daemon and works.
    chmodSync(dir, 0o700);
    expect((await sh.bm(['open', `${site.origin}/shop/`])).status).toBe(0);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "refuses another user's socket and a symbolic link, before sending anything",
    async () => {
      const sh = open();
      const dir = join(sh.dataDir, 'cli');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const socket = join(dir, 'daemon.sock');
      const heard: unknown[] = [];
      await fakeDaemon(socket, (request) => {
        heard.push(request);
        return { exit: 0, stdout: 'fake\n', stderr: '' };
      });
      chownSync(socket, 65534, 65534); // nobody's
      const fullClient = { ...sh.env, BROWSERMESH_CONFIG: join(sh.home, 'config.json') };
      writeFileSync(fullClient.BROWSERMESH_CONFIG, '{}');
      // The warm thin client and the full client (a config file may name the data directory) alike.
      for (const result of [await run(sh.env, ['url'], sh.home), await run(fullClient, ['url'], sh.home)]) {
        expect(result.status).toBe(1);
        expect(result.stderr).toMatch(/^DAEMON_UNTRUSTED: /);
        expect(result.stderr).toContain(`${socket} belongs to uid 65534, not to you (uid 0)`);
      }
      expect(heard).toEqual([]);

      // A symbolic link in the socket's place (to a socket of this user) is refused as well.
      const elsewhere = mkdtempSync(join(tmpdir(), 'bm-elsewhere-'));
      const target = join(elsewhere, 'real.sock');
      await fakeDaemon(target, (request) => (heard.push(request), { exit: 0, stdout: '', stderr: '' }));
      const linkDir = join(mkdtempSync(join(tmpdir(), 'bm-cli-')), 'cli');
      mkdirSync(linkDir, { mode: 0o700 });
      symlinkSync(target, join(linkDir, 'daemon.sock'));
      const env = { ...sh.env, BROWSERMESH_DATA_DIR: join(linkDir, '..') };
      const linked = await run(env, ['url'], sh.home);
      expect(linked.status).toBe(1);
      expect(linked.stderr).toContain(`DAEMON_UNTRUSTED: ${join(linkDir, 'daemon.sock')} is a symbolic link`);
      expect(heard).toEqual([]);
    },
  );

  it('writes a file only where the command line asked, whatever the daemon names', async () => {
    const sh = open();
    const dir = join(sh.dataDir, 'cli');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const work = mkdtempSync(join(tmpdir(), 'bm-work-'));
    const planted = join(work, 'planted.txt');
    const data = Buffer.from('not yours').toString('base64');
    // A daemon of this very user that answers a screenshot with a file somewhere else.
    await fakeDaemon(join(dir, 'daemon.sock'), (request) =>
      'argv' in request
        ? { exit: 0, stdout: 'done\n', stderr: '', file: { path: planted, data } }
        : { ok: true, text: 'done', file: { path: planted, data } },
    );
    const warm = await run(sh.env, ['screenshot', 'shot.png'], work);
    expect(warm.status).toBe(1);
    expect(warm.stderr).toMatch(/^DAEMON_UNTRUSTED: the daemon named a file this command did not ask for/);
    const config = join(sh.home, 'config.json');
    writeFileSync(config, '{}');
    const full = await run({ ...sh.env, BROWSERMESH_CONFIG: config }, ['screenshot', 'shot.png'], work);
    expect(full.status).toBe(1);
    expect(full.stderr).toMatch(/^DAEMON_UNTRUSTED: the daemon named a file this command did not ask for/);
    expect(existsSync(planted)).toBe(false);
    expect(readdirSync(work)).toEqual([]);
  });

  it('writes the files a real daemon makes where they were asked for (a path, the default name)', async () => {
    const sh = open();
    const work = mkdtempSync(join(tmpdir(), 'bm-work-'));
    expect((await run(sh.env, ['open', `${site.origin}/shop/`], work)).status).toBe(0);
    const named = await run(sh.env, ['screenshot', 'shots/page.png'], work);
    expect(named.status).toBe(0);
    expect(
      readFileSync(join(work, 'shots', 'page.png'))
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const absolute = join(work, 'abs.png');
    expect((await run(sh.env, ['screenshot', absolute], work)).status).toBe(0);
    expect(existsSync(absolute)).toBe(true);
    const defaulted = await run(sh.env, ['screenshot'], work);
    expect(defaulted.status).toBe(0);
    expect(readdirSync(work).filter((name) => /^browsermesh-.+\.png$/.test(name))).toHaveLength(1);
  });
});

/**
 * A `--require` file that holds each daemon's first attempt at its claim (the claim lock, taken
 * before the socket is bound: src/cli/face/daemon-claim.ts) until `count` daemons have reached it:
 * every daemon has decided to start before any of them claims (a forced race). The hold is a
 * synchronous wait (`openSync` is synchronous). A daemon that never reaches it (it failed first)
 * releases the others after 20 s, so the test reports that daemon's exit instead of a hang.
 */
function raceBarrier(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'bm-race-'));
  const hook = join(dir, 'barrier.cjs');
  const arrived = join(dir, 'arrived');
  mkdirSync(arrived);
  writeFileSync(
    hook,
    `const fs = require('node:fs');
const openSync = fs.openSync;
const pause = new Int32Array(new SharedArrayBuffer(4));
let held = false;
fs.openSync = function (path, ...rest) {
  if (!held && typeof path === 'string' && path.endsWith('daemon.sock.lock')) {
    held = true;
    fs.writeFileSync(${JSON.stringify(arrived)} + '/' + process.pid, '');
    const until = Date.now() + 20000;
    while (fs.readdirSync(${JSON.stringify(arrived)}).length < ${count} && Date.now() < until) Atomics.wait(pause, 0, 0, 10);
  }
  return openSync.call(this, path, ...rest);
};
require('node:module').syncBuiltinESMExports();
`,
  );
  return hook;
}

describe('daemons started at once for one data directory', () => {
  it('leave one serving; the others exit at once, with no browser and no fatal error', async () => {
    const sh = open({ BROWSERMESH_WARM_UP: 'true' });
    const barrier = raceBarrier(3);
    const starters = [0, 1, 2].map((index) => {
      const value = `${process.pid}-${index}-${Date.now()}`;
      const child = spawn(process.execPath, ['--require', barrier, CLI, 'daemon', 'run'], {
        env: { ...sh.env, BM_RACE_TAG: value },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      children.push(child);
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return { child, tag: `BM_RACE_TAG=${value}`, stderr: () => stderr };
    });
    const exited = (): typeof starters => starters.filter(({ child }) => child.exitCode !== null);
    const twoExited = await waitFor(() => exited().length === 2, 90_000);
    // On failure, what each starter said: which one stopped early, and why.
    const said = starters.map(({ child, stderr }) => ({
      exitCode: child.exitCode,
      stderr: stderr().slice(-600),
    }));
    expect(twoExited, JSON.stringify(said)).toBe(true);
    const [winner] = starters.filter(({ child }) => child.exitCode === null);
    const winnerPid = winner?.child.pid ?? 0;
    const status = await sh.bm(['daemon', 'status']);
    expect(status.stdout).toMatch(new RegExp(`^daemon running: pid ${winnerPid},`));
    for (const loser of exited()) {
      expect(loser.child.exitCode).toBe(0);
      expect(loser.stderr()).not.toMatch(/fatal/i);
      expect(tagged(loser.tag)).toEqual([]);
    }
    // The check sees browsers: the winner warms one up, and it carries the winner's tag.
    const browserOf = (tag: string): number[] =>
      tagged(tag).filter((pid) => pid !== winnerPid && /chrom/i.test(commandOf(pid)));
    expect(await waitFor(() => browserOf(winner?.tag ?? '').length > 0, 90_000)).toBe(true);
    for (const loser of exited()) expect(tagged(loser.tag)).toEqual([]);
    expect(alive(winnerPid)).toBe(true);
  });
});

describe("the daemon's dashboard", () => {
  it('is opened with its own random token, which `daemon status` shows and every data request needs', async () => {
    const sh = open({ BROWSERMESH_DASHBOARD: 'true' });
    expect((await sh.bm(['open', `${site.origin}/shop/`])).status).toBe(0);
    const status = await sh.bm(['daemon', 'status']);
    const [, url = '', token = ''] =
      /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/dashboard\/)#token=([\w-]{32})$/m.exec(status.stdout) ?? [];
    expect(token).not.toBe('');
    expect((await fetch(`${url}api/state`)).status).toBe(401);
    const state = await fetch(`${url}api/state`, { headers: { Authorization: `Bearer ${token}` } });
    expect(state.status).toBe(200);
    expect(((await state.json()) as { sessions: unknown[] }).sessions).toHaveLength(1);
  });
});
