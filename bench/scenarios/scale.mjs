// scale: N concurrent isolated sessions each doing the per-step checkout at the same time.
// BrowserMesh runs them all in one process (one session each); the peers have no sessions, so each
// isolated session is one more server process with its own browser, as a user would run them.
// The floor is playwright-core itself: one browser, one new context with one page per session.
//
// Measured once the N sessions are open and warm (setup is not timed): wall time of the N
// concurrent checkouts, checkouts per minute, CPU seconds per checkout (server + browser process
// trees, /proc), and PSS of those trees with all N sessions still open. Memory per added session
// is (PSS at N - PSS at 1) / (N - 1).

import { McpConnection } from '../lib/mcp.mjs';
import { treeCpuSeconds, treePssMiB } from '../lib/proc.mjs';
import { hasTool, NotAvailable } from '../peers/browsermesh.mjs';
import { launchReference, referenceCheckout } from '../peers/reference.mjs';
import { attempt } from './attempt.mjs';
import { progress } from '../lib/progress.mjs';

export const FLOOR_LABEL = 'floor: playwright-core context + page';
const START_BATCH = 4;

function cpuOf(pids) {
  return pids.reduce((total, pid) => total + treeCpuSeconds(pid), 0);
}

function pssOf(pids) {
  return pids.reduce((total, pid) => total + treePssMiB(pid).mib, 0);
}

/** Runs the N checkouts at once and measures them; `pids` are the process-tree roots to charge. */
async function measureRun(n, pids, runs) {
  const cpuBefore = cpuOf(pids);
  const started = performance.now();
  const results = await Promise.allSettled(runs.map((run) => run()));
  const wallMs = performance.now() - started;
  const cpuSeconds = cpuOf(pids) - cpuBefore;
  const pssMiB = pssOf(pids);
  const missing = results.find((r) => r.status === 'rejected' && r.reason instanceof NotAvailable);
  if (missing) throw missing.reason;
  const failures = results.filter((r) => r.status === 'rejected');
  if (failures.length === n) throw failures[0].reason;
  const ok = n - failures.length;
  return {
    wallMs,
    checkoutsPerMin: (ok / wallMs) * 60_000,
    cpuSecPerCheckout: cpuSeconds / ok,
    pssMiB,
    failures: failures.length,
    ...(failures.length
      ? { firstFailure: String(failures[0].reason?.message ?? failures[0].reason).slice(0, 200) }
      : {}),
  };
}

async function scaleBrowserMesh(ctx, contender, n) {
  const conn = new McpConnection(contender.serverSpec({ tmpDir: ctx.scratch(`scale-${contender.id}`) }));
  try {
    await conn.start();
    const pages = [];
    for (let i = 0; i < n; i++) {
      const page = await contender.open(conn);
      await contender.navigate(conn, page, ctx.fixture.url('/quiet'));
      pages.push(page);
    }
    // The refs flow is the one the peers run; until browser_snapshot exists, say so and use locators.
    const refs = await hasTool(conn, 'browser_snapshot');
    const method = refs ? 'checkout' : 'locatorCheckout';
    const measured = await measureRun(
      n,
      [conn.pid],
      pages.map((page) => () => contender[method](conn, page, ctx.fixture)),
    );
    return {
      ...measured,
      ...(refs ? {} : { flow: 'locators, no snapshots (browser_snapshot not available yet)' }),
    };
  } finally {
    await conn.close();
  }
}

async function scalePeer(ctx, contender, n) {
  const entries = [];
  try {
    for (let i = 0; i < n; i += START_BATCH) {
      const batch = Array.from({ length: Math.min(START_BATCH, n - i) }, async () => {
        const conn = new McpConnection(
          contender.serverSpec({ tmpDir: ctx.scratch(`scale-${contender.id}`) }),
        );
        const entry = { conn };
        entries.push(entry);
        await conn.start();
        entry.page = await contender.open(conn);
        await contender.navigate(conn, entry.page, ctx.fixture.url('/quiet'));
      });
      await Promise.all(batch);
    }
    return await measureRun(
      n,
      entries.map((e) => e.conn.pid),
      entries.map(
        ({ conn, page }) =>
          () =>
            contender.checkout(conn, page, ctx.fixture),
      ),
    );
  } finally {
    await Promise.all(entries.map((e) => e.conn.close()));
  }
}

async function scaleFloor(ctx, n) {
  const { browser, pid } = await launchReference();
  try {
    if (!pid) throw new Error('could not find the reference Chromium process');
    const pages = [];
    for (let i = 0; i < n; i++) {
      const page = await (await browser.newContext()).newPage();
      await page.goto(ctx.fixture.url('/quiet'));
      pages.push(page);
    }
    const measured = await measureRun(
      n,
      [pid],
      pages.map((page) => () => referenceCheckout(page, ctx.fixture.origin)),
    );
    return { ...measured, note: 'browser process tree only (the driver shares the harness process)' };
  } finally {
    await browser.close().catch(() => undefined);
  }
}

/** Adds perAddedSessionMiB to each row with n > 1, from the same contender's n = 1 row. */
function addPerSession(rows) {
  for (const row of rows) {
    const base = rows.find((r) => r.contender === row.contender && r.n === 1 && Number.isFinite(r.pssMiB));
    if (row.n > 1 && base && Number.isFinite(row.pssMiB))
      row.perAddedSessionMiB = (row.pssMiB - base.pssMiB) / (row.n - 1);
  }
  return rows;
}

export const scale = {
  name: 'scale',
  title: 'Scale: N concurrent sessions doing the checkout',
  async run(ctx) {
    // Long-lived servers from earlier scenarios would only add noise here.
    for (const contender of ctx.contenders) await ctx.closeSession(contender);
    const rows = [];
    for (const n of ctx.options.scale) {
      for (const contender of ctx.contenders) {
        progress(`  scale ${contender.label} N=${n}`);
        const run = contender.id === 'browsermesh' ? scaleBrowserMesh : scalePeer;
        rows.push(await attempt({ contender: contender.label, n }, () => run(ctx, contender, n)));
      }
      if (ctx.options.reference) {
        progress(`  scale ${FLOOR_LABEL} N=${n}`);
        rows.push(await attempt({ contender: FLOOR_LABEL, n }, () => scaleFloor(ctx, n)));
      }
    }
    return { rows: addPerSession(rows) };
  },
};
