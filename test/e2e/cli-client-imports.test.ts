import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { CLI, modulesOf } from './cli-helpers.js';
import { refOf, shell, type Shell } from './cli-face-support.js';

// The shell face's last goal: a warm shell command pays a Node start, one small module and one socket
// round trip (docs/cli.md, "The client is light"). A resolve hook in the spawned client records every
// module it loads; the client of a warm command loads the entry and the thin client, and nothing
// else: not the command table (the daemon parses), no package, no config module, no engine, tool or
// MCP module. Usage errors, help and stdin keep their exit status and text on that path.

let site: FixtureServer;
const shells: Shell[] = [];

beforeAll(async () => {
  site = await startFixtureServer();
});
afterEach(async () => {
  await Promise.all(shells.splice(0).map((sh) => sh.cleanup()));
});
afterAll(async () => {
  await site.close();
});

/** A `--import` file that appends every module the process resolves (and every require) to a log. */
function hook(): { register: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bm-client-imports-'));
  const log = join(dir, 'loaded.txt');
  const hookFile = join(dir, 'hook.mjs');
  writeFileSync(log, '');
  writeFileSync(
    hookFile,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}
`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(pathToFileURL(hookFile).href)});
const load = Module._load;
Module._load = function (request, parent, ...rest) {
  if (!request.startsWith('node:')) {
    let file = request;
    try { file = Module._resolveFilename(request, parent); } catch {}
    appendFileSync(${JSON.stringify(log)}, 'require:' + file + '\\n');
  }
  return load.call(this, request, parent, ...rest);
};
`,
  );
  return { register, log };
}

/** Runs the built CLI under the hook; what it printed and every module it loaded. */
function hooked(
  sh: Shell,
  args: string[],
): Promise<{ status: number | null; stdout: string; loaded: string[] }> {
  const { register, log } = hook();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', register, CLI, ...args], {
      env: sh.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('close', (status) => {
      const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      resolve({ status, stdout, loaded });
    });
  });
}

/** Where a loaded module is, relative to the build (`cli/face/client.js`), or the whole URL. */
const own = (url: string): string => /\/dist\/(.+)$/.exec(url)?.[1] ?? url;

/** The whole of what a warm command may load: the entry, the thin client, its environment reader and daemon check. */
const WARM = [
  'cli/bin.cjs',
  'cli/face/daemon-trust.cjs',
  'cli/face/thin-client.cjs',
  'config/thin-client-env.cjs',
];
const warmSet = (loaded: readonly string[]): string[] => [...new Set(loaded.map(own))].sort();

/** Runs the built CLI without the hook, stdin from `input`. */
function plain(
  env: Record<string, string>,
  args: string[],
  input = '',
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('the shell client of a warm daemon', () => {
  it('clicks by ref loading only the entry and the thin client', async () => {
    const sh = shell();
    shells.push(sh);
    // Cold: the first command starts the daemon, after checking every setting with the whole loader.
    const cold = await hooked(sh, ['open', `${site.origin}/actions/buttons`]);
    expect(cold.status).toBe(0);
    expect(cold.loaded.flatMap(modulesOf)).toContain('config/load.js');
    const snap = await sh.bm(['snapshot', '-i']);
    const ref = refOf(snap.stdout, 'button', 'Increment');

    const click = await hooked(sh, ['click', ref]);
    expect(click.status).toBe(0);
    expect(click.stdout).toContain('"mutations"');
    expect(warmSet(click.loaded)).toEqual(WARM);

    // Options before the command word (the session flag) and after it (--json) take the same path.
    const text = await hooked(sh, ['-s', 'default', 'text', '--json']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('Count: 1');
    expect(warmSet(text.loaded)).toEqual(WARM);
  });

  it('answers usage errors, help and a heredoc as the full client does, loading no more', async () => {
    const sh = shell();
    shells.push(sh);
    // Before any daemon runs, the full client answers (help and usage errors start none).
    const coldHelp = await plain(sh.env, ['click', '--help']);
    const coldUsage = await plain(sh.env, ['click']);
    const coldUnknown = await plain(sh.env, ['clik', '@e1']);
    expect(coldHelp.status).toBe(0);
    expect(coldUsage.status).toBe(2);
    expect(coldUnknown.status).toBe(2);
    expect(sh.daemonPid()).toBeUndefined();
    expect((await sh.bm(['open', `${site.origin}/actions/buttons`])).status).toBe(0);

    const help = await hooked(sh, ['click', '--help']);
    expect([help.status, help.stdout]).toEqual([0, coldHelp.stdout]);
    expect(warmSet(help.loaded)).toEqual(WARM);
    for (const [args, cold] of [
      [['click'], coldUsage],
      [['clik', '@e1'], coldUnknown],
    ] as const) {
      const warm = await plain(sh.env, [...args]);
      expect([warm.status, warm.stdout, warm.stderr]).toEqual([2, '', cold.stderr]);
    }
    const bad = await hooked(sh, ['click']);
    expect([bad.status, warmSet(bad.loaded)]).toEqual([2, WARM]);

    // `run` reads its script from stdin: the daemon asks for it, the thin client sends it.
    const run = await plain(sh.env, ['run'], 'return await page.title();');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Actions: buttons');
    const empty = await plain(sh.env, ['run'], '');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/^USAGE: run: give the script/);
  });

  it('still checks setting flags and a bad setting with the whole loader', async () => {
    const sh = shell();
    shells.push(sh);
    expect((await sh.bm(['open', `${site.origin}/actions/buttons`])).status).toBe(0);
    // A setting flag on a warm command goes through the loader: refused as a usage error. (--timeout
    // is a command's own option, its call's deadline, so a daemon setting stands in for it.)
    const flagged = await sh.bm(['snapshot', '--max-pages', 'soon']);
    expect(flagged.status).toBe(2);
    expect(flagged.stderr).toMatch(/^USAGE: invalid configuration: --max-pages: must be an integer/);
    // A default session name its setting refuses is left to the loader, which says what is wrong.
    const env = { ...sh.env, BROWSERMESH_SESSION: 'no spaces allowed' };
    const refused = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'snapshot'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^USAGE: invalid configuration: BROWSERMESH_SESSION/);
  });
});
