import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHROMIUM } from '../helpers/harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The adapters' optional peers, as a user's project would have them next to browsermesh. */
const PEERS = ['ai', '@langchain/core', '@mastra/core'];

/**
 * Links the peers from this checkout's node_modules into the consumer (after npm install, which
 * would prune them): the adapters are then run without fetching a framework from the network.
 */
function linkPeers(app: string): void {
  for (const name of PEERS) {
    const target = join(app, 'node_modules', name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), target, 'dir');
  }
}

/** The installed `browsermesh` bin as an MCP client starts it: initialize, tools, a session. */
async function serveFromInstalledCli(app: string, env: Record<string, string>): Promise<void> {
  const transport = new StdioClientTransport({
    command: join(app, 'node_modules', '.bin', 'browsermesh'),
    args: ['--data-dir', join(app, 'data')],
    cwd: app,
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'pack-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('browser_session_create');
    const created = await client.callTool({ name: 'browser_session_create', arguments: {} });
    expect(created.isError).toBeFalsy();
    const { session } = created.structuredContent as { session: { sessionId: string } };
    const closed = await client.callTool({
      name: 'browser_session_close',
      arguments: { sessionId: session.sessionId },
    });
    expect(closed.isError).toBeFalsy();
  } finally {
    await client.close();
  }
}

describe('the published package', () => {
  it('packs, installs into an empty folder; the installed CLI, library and each adapter run', async () => {
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
    const install = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
    execFileSync('npm', [...install, join(work, tarball!)], {
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
    await serveFromInstalledCli(app, env);

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

    // Each adapter, from the installed package, through its framework's own loop (see the script).
    linkPeers(app);
    copyFileSync(join(ROOT, 'test/e2e/support/adapters-consumer.mjs'), join(app, 'adapters.mjs'));
    const adapters = spawnSync(process.execPath, ['adapters.mjs'], {
      cwd: app,
      env,
      encoding: 'utf8',
      timeout: 180_000,
    });
    const lastLine = adapters.stdout.trim().split('\n').at(-1) ?? '';
    expect(adapters.status, adapters.stderr.slice(-2000)).toBe(0);
    expect(JSON.parse(lastLine)).toEqual({
      aiSdk: 'done',
      langchain: 'success/error',
      mastra: 'done',
      hits: { 'ai-sdk': 1, langchain: 1, mastra: 1 },
    });
    // The adapters ran the installed copy, not this checkout.
    const resolved = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "console.log(import.meta.resolve('browsermesh/mastra'))"],
      { cwd: app, env, encoding: 'utf8' },
    );
    expect(resolved.stdout).toContain(join(app, 'node_modules', 'browsermesh'));
  }, 420_000);

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
    // The metadata a registry page shows, and runtime dependencies that are all used at runtime:
    // ranges for what a user's project may share, the frameworks as optional peers.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      description?: string;
      license?: string;
      keywords?: string[];
      dependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    expect(pkg.description?.length).toBeGreaterThan(20);
    expect(pkg.license).toBe('Apache-2.0');
    expect(pkg.keywords).toEqual(expect.arrayContaining(['mcp', 'browser', 'playwright']));
    expect(Object.keys(pkg.dependencies).sort()).toEqual([
      '@modelcontextprotocol/sdk',
      'playwright-core',
      'quickjs-emscripten',
      'zod',
    ]);
    expect(pkg.dependencies['zod']).toMatch(/^\^/);
    expect(pkg.dependencies['@modelcontextprotocol/sdk']).toMatch(/^\^/);
    for (const peer of PEERS) expect(pkg.peerDependenciesMeta[peer]?.optional, peer).toBe(true);
  }, 60_000);
});
