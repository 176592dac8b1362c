#!/usr/bin/env node
/**
 * Measures what a bundled CLI would pay (docs/package.md): bundles dist/cli/main.js (and the
 * code-mode worker) into a temporary folder with rolldown — found in vitest's dependency tree, not a
 * dependency of this project — keeping playwright-core and the QuickJS builds external, then times
 * spawn → `initialize` answered and spawn → `tools/list` answered for the built CLI, the bundle and
 * Playwright MCP, interleaved.
 * Not part of the build: run `npm run build && node scripts/bundle-probe.mjs [iterations]`.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// BUNDLE_PROBE_ROOT: measure another built checkout (read only; the bundle goes to a temporary folder).
const ROOT = process.env.BUNDLE_PROBE_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const iterations = Number(process.argv[2] ?? 15);

async function bundle() {
  const require = createRequire(join(ROOT, 'node_modules', 'vitest', 'package.json'));
  let rolldown;
  try {
    ({ rolldown } = await import(require.resolve('rolldown')));
  } catch {
    console.error('rolldown is not in this install (it comes with vitest/vite); nothing to measure.');
    process.exit(1);
  }
  const pkg = mkdtempSync(join(tmpdir(), 'bm-bundle-'));
  const out = join(pkg, 'dist', 'cli');
  mkdirSync(out, { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  const build = await rolldown({
    input: {
      main: join(ROOT, 'dist/cli/main.js'),
      // worker-pool.ts starts ./sandbox-worker.js next to itself.
      'sandbox-worker': join(ROOT, 'dist/code-mode/sandbox-worker.js'),
    },
    platform: 'node',
    external: [/^playwright-core/, /^quickjs-emscripten/, /^@jitl\//, /^node:/],
    logLevel: 'silent',
  });
  await build.write({ dir: out, format: 'esm', minify: true, chunkFileNames: '[name]-[hash].js' });
  const bytes = readdirSync(out).reduce((sum, name) => sum + statSync(join(out, name)).size, 0);
  return { main: join(out, 'main.js'), files: readdirSync(out).length, bytes };
}

const message = (body) => `${JSON.stringify({ jsonrpc: '2.0', ...body })}\n`;
const HANDSHAKE =
  message({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
  }) +
  message({ method: 'notifications/initialized' }) +
  message({ id: 2, method: 'tools/list', params: {} });

/** Milliseconds from spawn to the initialize answer and to the tools/list answer on stdout. */
function timeStartup(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const since = () => Number(process.hrtime.bigint() - started) / 1e6;
    const home = mkdtempSync(join(tmpdir(), 'bm-probe-home-'));
    const child = spawn(process.execPath, args, {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, HOME: home },
    });
    let seen = '';
    let initMs;
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      initMs ??= seen.includes('"id":1') ? since() : undefined;
      if (!seen.includes('"id":2')) return;
      resolve({ initMs, toolsMs: since() });
      child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.stdin.write(HANDSHAKE);
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const bundled = await bundle();
const targets = {
  built: [join(ROOT, 'dist/cli/main.js'), '--no-warm-up'],
  bundled: [bundled.main, '--no-warm-up'],
  'playwright-mcp': [join(ROOT, 'node_modules/@playwright/mcp/cli.js')],
};
const times = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
for (let i = 0; i < iterations; i++) {
  for (const [name, args] of Object.entries(targets)) times[name].push(await timeStartup(args));
}
console.log(`bundle: ${bundled.files} files, ${(bundled.bytes / 1024).toFixed(0)} KiB (minified)`);
for (const [name, runs] of Object.entries(times)) {
  const init = runs.map((run) => run.initMs);
  const tools = runs.map((run) => run.toolsMs);
  console.log(
    `${name}: spawn → initialize median ${median(init).toFixed(0)} ms (min ${Math.min(...init).toFixed(0)}),` +
      ` → tools/list median ${median(tools).toFixed(0)} ms (min ${Math.min(...tools).toFixed(0)}), n=${iterations}`,
  );
}
