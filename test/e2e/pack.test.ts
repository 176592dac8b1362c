import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHROMIUM } from '../helpers/harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the published package', () => {
  it('packs, installs into an empty folder, and the installed `browsermesh --doctor` passes', () => {
    const work = mkdtempSync(join(tmpdir(), 'bm-pack-'));
    execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const app = join(work, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
    );
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', join(work, tarball!)], {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 240_000,
    });

    const env = { PATH: process.env.PATH ?? '', HOME: work, BROWSERMESH_EXECUTABLE_PATH: CHROMIUM };
    const doctor = spawnSync(join(app, 'node_modules', '.bin', 'browsermesh'), ['--doctor'], {
      cwd: app,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(doctor.stdout).toContain('All checks passed');
    expect(doctor.status).toBe(0);

    // The library entry loads on its own: no framework package is pulled in.
    const probe = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('browsermesh'); console.log(typeof m.BrowserMesh, typeof m.createMcpServer);",
      ],
      {
        cwd: app,
        env,
        encoding: 'utf8',
      },
    );
    expect(probe.stdout.trim()).toBe('function function');
  }, 300_000);

  it('carries every file the README links to (the docs travel in the tarball)', () => {
    const listing = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const packed = new Set(
      (JSON.parse(listing) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path),
    );
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(packed, link).toContain(link.replace(/^\.\//, ''));
    // Nothing only the tests need: no test folder, no fixtures.
    expect([...packed].some((path) => path.startsWith('test/'))).toBe(false);
  }, 60_000);
});
