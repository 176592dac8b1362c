import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CHROMIUM } from '../../helpers/harness.js';

const require = createRequire(import.meta.url);
const CLI = join(dirname(require.resolve('playwright-core/package.json')), 'cli.js');

export interface PlaywrightServer {
  process: ChildProcess;
  /** Kills the server and every browser it launched (its process group), at once. */
  kill(): void;
  /** ws://127.0.0.1:PORT/ as the server printed it. */
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * A real `playwright run-server` from playwright-core's own CLI, on 127.0.0.1 with a free port. It
 * launches its browsers from its managed-browsers folder (PLAYWRIGHT_BROWSERS_PATH); the folder made
 * here holds links to Debian's Chromium under the names playwright-core looks for (the full browser
 * and the headless shell), so no browser is downloaded. `versionOverride` makes the server say it
 * runs another Playwright version (PW_VERSION_OVERRIDE, which its version check reads); `port` lets
 * a restarted server take the endpoint of one that was killed.
 */
export async function startPlaywrightServer(
  options: { versionOverride?: string; port?: number } = {},
): Promise<PlaywrightServer> {
  const browsers = await mkdtemp(join(tmpdir(), 'bm-pw-browsers-'));
  await linkChromium(browsers);
  const child = spawn(
    process.execPath,
    [CLI, 'run-server', '--host', '127.0.0.1', '--port', String(options.port ?? 0)],
    {
      env: {
        ...process.env,
        PLAYWRIGHT_BROWSERS_PATH: browsers,
        ...(options.versionOverride ? { PW_VERSION_OVERRIDE: options.versionOverride } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: killing it ends the browsers it launched too.
      detached: true,
    },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`run-server did not start: ${out}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Listening on (ws:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', () => reject(new Error(`run-server exited: ${out}`)));
  });
  const kill = (): void => {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  };
  return {
    process: child,
    endpoint,
    kill,
    stop: async () => {
      const running = child.exitCode === null && child.signalCode === null;
      const exited = running ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
      kill();
      await exited;
      await rm(browsers, { recursive: true, force: true });
    },
  };
}

/** The executable behind Debian's `chromium` wrapper script, when it has one. */
function chromiumBinary(): string {
  const real = '/usr/lib/chromium/chromium';
  return CHROMIUM === '/usr/bin/chromium' && existsSync(real) ? real : CHROMIUM;
}

async function linkChromium(browsers: string): Promise<void> {
  // Asked of a fresh process: playwright-core reads its browsers folder once, when it loads.
  const full = execFileSync(
    process.execPath,
    [
      '-e',
      `process.stdout.write(require(${JSON.stringify(require.resolve('playwright-core'))}).chromium.executablePath())`,
    ],
    { env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: browsers }, encoding: 'utf8' },
  );
  // The headless shell sits beside the full browser: chromium_headless_shell-REV/chrome-headless-shell-linux64.
  const revision = /chromium-(\d+)/.exec(full)?.[1] ?? '';
  const shell = join(
    browsers,
    `chromium_headless_shell-${revision}`,
    'chrome-headless-shell-linux64',
    'chrome-headless-shell',
  );
  for (const path of [full, shell]) {
    await mkdir(dirname(path), { recursive: true });
    await symlink(chromiumBinary(), path);
  }
}
