import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { baseEnv, CLI } from './cli-helpers.js';

/**
 * `initialize` must be answered before anything heavy is loaded (issue 18): playwright-core alone
 * costs more than the rest of the server. A resolve hook in the spawned CLI reports every package it
 * loads, in order, on stderr; the answer to `initialize` is marked there too.
 */
function hookFiles(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bm-imports-'));
  const hook = join(dir, 'hook.mjs');
  writeFileSync(
    hook,
    `const seen = new Set();
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(resolved.url);
  if (match && !seen.has(match[1])) { seen.add(match[1]); process.stderr.write('PKG ' + match[1] + '\\n'); }
  return resolved;
}
`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
  );
  return register;
}

function packagesBeforeInitialize(args: string[]): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', hookFiles(), CLI, ...args], {
    env: baseEnv({ BROWSERMESH_LOG_LEVEL: 'warn' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer to initialize')), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes('"id":1')) return;
      clearTimeout(timer);
      const loaded = [...stderr.matchAll(/^PKG (\S+)$/gm)].map((m) => m[1] ?? '');
      child.kill();
      resolve(loaded);
    });
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })}\n`,
    );
  });
}

describe('startup', () => {
  it('answers initialize before loading playwright-core, the HTTP stack or the sandbox', async () => {
    const loaded = await packagesBeforeInitialize([]);
    expect(loaded).toContain('@modelcontextprotocol/sdk');
    for (const heavy of ['playwright-core', 'hono', '@hono/node-server', 'quickjs-emscripten'])
      expect(loaded).not.toContain(heavy);
  });
});
