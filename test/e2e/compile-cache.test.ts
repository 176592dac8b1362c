import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, CLI } from './cli-helpers.js';

/**
 * On Node 22.1+ the server keeps the compiled code of what it loads (playwright-core, the tools) in
 * `<data dir>/compile-cache`, so the next start skips compiling it (docs/performance.md). Node 20
 * has no such API: there the directory must not appear. The Node 24 run uses `npx node@24`.
 */
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

/** Starts the CLI with `node`, lists the tools, exits; resolves with the data dir used. */
function listOnce(node: string[]): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bm-ccache-'));
  const child = spawn(node[0] ?? 'node', [...node.slice(1), CLI, '--no-warm-up'], {
    env: baseEnv({ BROWSERMESH_DATA_DIR: dataDir, BROWSERMESH_LOG_LEVEL: 'warn' }),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no tools/list answer')), 90_000);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('"id":2')) return;
      clearTimeout(timer);
      child.stdin.end();
    });
    child.on('exit', () => resolve(dataDir));
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
  });
}

const cacheFiles = (dataDir: string): string[] => {
  const dir = join(dataDir, 'compile-cache');
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
};

describe('the module compile cache', () => {
  it('is kept in the data directory on Node 24', async (ctx) => {
    const probe = spawnSync('npx', ['-y', 'node@24', '--version'], { encoding: 'utf8', timeout: 120_000 });
    if (probe.status !== 0 || !probe.stdout.startsWith('v24.'))
      ctx.skip('Node 24 is not available through npx here');
    const dataDir = await listOnce(['npx', '-y', 'node@24']);
    expect(cacheFiles(dataDir).length).toBeGreaterThan(0);
  }, 180_000);

  it.skipIf(!process.versions.node.startsWith('20.'))(
    'is not created on Node 20, which has none',
    async () => {
      const dataDir = await listOnce([process.execPath]);
      expect(cacheFiles(dataDir)).toEqual([]);
      expect(readdirSync(dataDir)).not.toContain('compile-cache');
    },
  );
});
