import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Config } from '../config/load.js';
import { findChromium, installHint } from '../engine/providers/find-chromium.js';

/**
 * Gets a Chromium where it can: Playwright's own download first, then Debian's package when running
 * as root with apt-get. Otherwise prints the exact command. Returns the exit status.
 */
export async function installBrowser(config: Config, write: (line: string) => void): Promise<number> {
  const existing = await findChromium(config.executablePath);
  if (existing) {
    write(`Chromium already available (${existing.source}): ${existing.path}\n`);
    return 0;
  }
  write("No Chromium found; trying Playwright's download…\n");
  const cli = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js');
  const viaPlaywright = spawnSync(process.execPath, [cli, 'install', 'chromium'], {
    stdio: ['ignore', 2, 2],
  });
  if (viaPlaywright.status === 0 && (await findChromium(''))) return done(write);
  if (
    process.platform === 'linux' &&
    process.getuid?.() === 0 &&
    spawnSync('apt-get', ['--version']).status === 0
  ) {
    write("Trying Debian's chromium package (apt-get)…\n");
    spawnSync('apt-get', ['update'], { stdio: ['ignore', 2, 2] });
    const viaApt = spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: ['ignore', 2, 2] });
    if (viaApt.status === 0 && (await findChromium(''))) return done(write);
  }
  write(`Could not install Chromium automatically. Run: ${installHint()}\n`);
  return 1;
}

async function done(write: (line: string) => void): Promise<number> {
  write(`Chromium installed: ${(await findChromium(''))?.path ?? ''}\n`);
  return 0;
}
