import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { CLI } from './cli-helpers.js';
import { refOf, shell, type Shell } from './cli-face-support.js';

// Issue 26's last goal: a warm shell command pays a Node start, the command table and one socket
// round trip. A resolve hook in the spawned client records every module it loads; the client of a
// warm command may load its own files and the settings table, and nothing else: no package, no
// engine, tool or MCP module, not the configuration's validators (config/load), not the server side.

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
Module._load = function (request, ...rest) {
  if (!request.startsWith('node:')) appendFileSync(${JSON.stringify(log)}, 'require:' + request + '\\n');
  return load.call(this, request, ...rest);
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

/** Modules a warm command must not load. */
function heavy(loaded: readonly string[]): string[] {
  return loaded
    .map(own)
    .filter(
      (path) =>
        path.startsWith('require:') ||
        path.includes('node_modules') ||
        !/^(cli|config)\//.test(path) ||
        path === 'config/load.js' ||
        path === 'cli/server-face.js',
    );
}

describe('the shell client of a warm daemon', () => {
  it('clicks by ref loading only the command table and its own files', async () => {
    const sh = shell();
    shells.push(sh);
    // Cold: the first command starts the daemon, after checking every setting with the whole loader.
    const cold = await hooked(sh, ['open', `${site.origin}/actions/buttons`]);
    expect(cold.status).toBe(0);
    expect(cold.loaded.map(own)).toContain('config/load.js');
    const snap = await sh.bm(['snapshot', '-i']);
    const ref = refOf(snap.stdout, 'button', 'Increment');

    const click = await hooked(sh, ['click', ref]);
    expect(click.status).toBe(0);
    expect(click.stdout).toContain('"mutations"');
    expect(click.loaded.map(own)).toContain('cli/face/client.js');
    expect(heavy(click.loaded)).toEqual([]);

    // Options before the command word (the session flag) and after it (--json) take the same path.
    const text = await hooked(sh, ['-s', 'default', 'text', '--json']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('Count: 1');
    expect(heavy(text.loaded)).toEqual([]);
  });

  it('still checks setting flags and a bad setting with the whole loader', async () => {
    const sh = shell();
    shells.push(sh);
    expect((await sh.bm(['open', `${site.origin}/actions/buttons`])).status).toBe(0);
    // A setting flag on a warm command goes through the loader: refused as a usage error.
    const flagged = await sh.bm(['snapshot', '--timeout', 'soon']);
    expect(flagged.status).toBe(2);
    expect(flagged.stderr).toMatch(/^USAGE: invalid configuration: --timeout: must be an integer/);
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
