#!/usr/bin/env node
// Measures an action followed by its snapshot (the action view: interactive + text lines) on the
// fixture site's /large, with the full in-page capture and with the incremental one, taken in turn
// (docs/performance.md, "Incremental capture after an action"). Checks on every run that both give
// the same text.
//
//   npm run build && node scripts/measure-incremental.mjs [--runs 15]
import { startFixtureServer } from '../test/fixtures/server.mjs';

const dist = new URL('../dist/', import.meta.url);
const { createBrowserMesh } = await import(new URL('create-mesh.js', dist).href);
const { defaultConfig } = await import(new URL('config/load.js', dist).href);
const { takeSnapshot } = await import(new URL('snapshot/snapshot.js', dist).href);
const { ensureListenersHook } = await import(new URL('snapshot/page-world.js', dist).href);

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;
const VIEW = { interactiveOnly: true, textLines: true };

const site = await startFixtureServer();
const mesh = createBrowserMesh({ config: defaultConfig({ timeoutMs: 60_000 }) });
const times = { full: [], incremental: [] };
let reused = 0;
let nodes = 0;
let sent = 0;
try {
  const { session, initialPage } = await mesh.createSession();
  const on = (op, fn) => mesh.runOnPage(session.sessionId, initialPage.pageId, op, fn);
  await on('goto', async (ctx) => {
    await ensureListenersHook(ctx.page);
    await ctx.page.page.goto(site.url('/large'), { waitUntil: 'load' });
  });
  const snap = (ctx, incremental) =>
    takeSnapshot(ctx.page, VIEW, { deadline: ctx.deadline, refTtlMs: 0, capture: 'auto', incremental });
  await on('warm', (ctx) => snap(ctx, false));
  for (let i = 0; i < RUNS * 2; i++) {
    const incremental = i % 2 === 1;
    const started = performance.now();
    const result = await on('type', async (ctx) => {
      await ctx.page.page.fill('#large-q', `query ${i}`);
      return snap(ctx, incremental);
    });
    times[incremental ? 'incremental' : 'full'].push(performance.now() - started);
    if (incremental) {
      if (!result.capture) throw new Error('the snapshot was not incremental');
      reused += result.capture.reusedNodes;
      nodes += result.capture.nodes;
      sent += result.capture.sentNodes;
      const full = await on('check', (ctx) => snap(ctx, false));
      if (full.snapshot !== result.snapshot) throw new Error('incremental and full captures differ');
    }
  }
} finally {
  await mesh.shutdown();
  await site.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const full = median(times.full);
const incremental = median(times.incremental);
console.log(`/large: fill a textbox + action snapshot, median of ${RUNS} each, taken in turn`);
console.table({
  full: { ms: Math.round(full) },
  incremental: { ms: Math.round(incremental), ratio: Number((incremental / full).toFixed(2)) },
});
console.log(
  `reused ${((100 * reused) / nodes).toFixed(1)}% of the nodes; ${((100 * sent) / nodes).toFixed(1)}% crossed CDP`,
);
