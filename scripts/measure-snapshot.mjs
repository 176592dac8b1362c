#!/usr/bin/env node
// Measures browser_snapshot on the fixture site: characters, UTF-8 bytes, o200k tokens (gpt-tokenizer)
// and capture time of a full and an interactive-only snapshot of /large and /forms, next to
// Playwright's own AI snapshot of the same page (what @playwright/mcp's browser_snapshot is built on;
// the benchmark measures the real MCP server). Whole renderings are measured (no response budget).
//
//   npm run build && node scripts/measure-snapshot.mjs [--runs 5]
//   BROWSERMESH_DIST=/tmp/bm-dist node scripts/measure-snapshot.mjs   (another build directory)
//   BROWSERMESH_EXECUTABLE_PATH=/usr/bin/chromium …                   (a specific Chromium)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { startFixtureServer } from '../test/fixtures/server.mjs';

const dist = process.env.BROWSERMESH_DIST
  ? pathToFileURL(`${resolve(process.env.BROWSERMESH_DIST)}/`)
  : new URL('../dist/', import.meta.url);
const { createBrowserMesh } = await import(new URL('create-mesh.js', dist).href);
const { defaultConfig } = await import(new URL('config/load.js', dist).href);
const { snapshot } = await import(new URL('operations/read/snapshot.js', dist).href);
const { ensureListenersHook } = await import(new URL('snapshot/page-world.js', dist).href);

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const WHOLE = { maxChars: 1_000_000, maxBytes: 4_194_304 };
const PAGES = ['/large', '/forms'];
const MODES = [
  ['full', {}],
  ['interactive', { interactiveOnly: true }],
];

const site = await startFixtureServer();
const overrides = process.env.BROWSERMESH_EXECUTABLE_PATH
  ? { executablePath: process.env.BROWSERMESH_EXECUTABLE_PATH }
  : {};
const mesh = createBrowserMesh({ config: defaultConfig({ timeoutMs: 60_000, ...overrides }) });
const rows = [];
try {
  const { session, initialPage } = await mesh.createSession();
  const on = (op, fn) => mesh.runOnPage(session.sessionId, initialPage.pageId, op, fn);
  for (const path of PAGES) {
    // As the tools load a page: the click-listener hook first, or `auto` answers from the CDP tree.
    await on('goto', async (ctx) => {
      await ensureListenersHook(ctx.page);
      await ctx.page.page.goto(site.url(path), { waitUntil: 'load' });
    });
    const pw = await timed(() => on('aria', (ctx) => ctx.page.page.ariaSnapshot({ mode: 'ai' })));
    const pwTokens = encode(pw.value).length;
    rows.push(row(path, 'playwright ai', pw.value, pwTokens, pw.ms, null));
    for (const [mode, input] of MODES) {
      const run = await timed(() => on('snapshot', (ctx) => snapshot(ctx, { ...input, ...WHOLE })));
      const text = run.value.snapshot;
      rows.push(row(path, mode, text, encode(text).length, run.ms, pwTokens, run.value.estimatedTokens));
    }
  }
} finally {
  await mesh.shutdown();
  await site.close();
}

console.log(`browser_snapshot sizes (whole rendering; capture ms = median of ${RUNS} after one warm-up)`);
console.table(rows);

/** Median time of RUNS runs after one warm-up (the first accessibility tree of a page is the slowest). */
async function timed(fn) {
  let value = await fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    value = await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { value, ms: Math.round(times[Math.floor(times.length / 2)]) };
}

function row(page, mode, text, tokens, ms, baselineTokens, estimated) {
  return {
    page,
    mode,
    chars: [...text].length,
    bytes: Buffer.byteLength(text, 'utf8'),
    tokens,
    estimated: estimated ?? '',
    ms,
    'x playwright': baselineTokens ? (tokens / baselineTokens).toFixed(3) : '',
  };
}
