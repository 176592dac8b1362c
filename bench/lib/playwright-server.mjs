// A `playwright run-server` (playwright-core's own CLI) on 127.0.0.1 for the checkout row through the
// playwright provider. It launches its browsers from a folder of links to the bench's Chromium under
// the names playwright-core looks for (the full browser and the headless shell), so nothing is
// downloaded. Its own process group: stopping it ends the browsers it launched too.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CHROMIUM_PATH } from './chromium.mjs';

const require = createRequire(import.meta.url);
const CLI = join(dirname(require.resolve('playwright-core/package.json')), 'cli.js');

/** The executable behind Debian's `chromium` wrapper script, when it has one. */
function chromiumBinary() {
  const real = '/usr/lib/chromium/chromium';
  return CHROMIUM_PATH === '/usr/bin/chromium' && existsSync(real) ? real : CHROMIUM_PATH;
}

function linkChromium(browsers) {
  // Asked of a fresh process: playwright-core reads its browsers folder once, when it loads.
  const full = execFileSync(
    process.execPath,
    [
      '-e',
      `process.stdout.write(require(${JSON.stringify(require.resolve('playwright-core'))}).chromium.executablePath())`,
    ],
    { env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: browsers }, encoding: 'utf8' },
  );
  const revision = /chromium-(\d+)/.exec(full)?.[1] ?? '';
  const shell = join(
    browsers,
    `chromium_headless_shell-${revision}`,
    'chrome-headless-shell-linux64',
    'chrome-headless-shell',
  );
  for (const path of [full, shell]) {
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(chromiumBinary(), path);
  }
}

/** Starts the server; resolves with its ws:// endpoint on 127.0.0.1 and a stop function. */
export async function startPlaywrightServer() {
  const browsers = mkdtempSync(join(tmpdir(), 'bench-pw-browsers-'));
  linkChromium(browsers);
  const child = spawn(process.execPath, [CLI, 'run-server', '--host', '127.0.0.1', '--port', '0'], {
    env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: browsers },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stop = async () => {
    const running = child.exitCode === null && child.signalCode === null;
    const exited = running ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
    await exited;
    rmSync(browsers, { recursive: true, force: true });
  };
  try {
    const endpoint = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`run-server did not start: ${out}`)), 30_000);
      child.stdout.on('data', (chunk) => {
        out += chunk.toString();
        const match = /Listening on (ws:\/\/\S+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', () => reject(new Error(`run-server exited: ${out}`)));
    });
    return { endpoint, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
