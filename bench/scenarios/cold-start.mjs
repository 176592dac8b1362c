// cold start: from spawning the server to the first completed navigation — process start, MCP
// handshake, tools/list (every client lists tools first), whatever the server needs to get a page
// (a session for BrowserMesh, the page id for chrome-devtools-mcp) and one navigation, which
// launches the browser. The reference is playwright-core: launch, new context, new page, goto.
// Also recorded: spawn → `initialize` answered (the handshake alone), and for BrowserMesh the first
// `browser_run` of the process next to the second one (a cold sandbox worker shows as the gap).

import { McpConnection } from '../lib/mcp.mjs';
import { median } from '../lib/stats.mjs';
import { REFERENCE_LABEL, launchReference } from '../peers/reference.mjs';
import { attempt, repeat } from './attempt.mjs';

async function coldOnce(ctx, contender) {
  const conn = new McpConnection(contender.serverSpec({ tmpDir: ctx.scratch(`cold-${contender.id}`) }));
  try {
    const started = performance.now();
    const initMs = await conn.start();
    await conn.listTools();
    const page = await contender.open(conn);
    await contender.navigate(conn, page, ctx.fixture.url('/quiet'));
    const ms = performance.now() - started;
    if (contender.id !== 'browsermesh') return { ms, initMs };
    const firstRunMs = await timedRun(conn, page);
    return { ms, initMs, firstRunMs, warmRunMs: await timedRun(conn, page) };
  } finally {
    await conn.close();
  }
}

/** One trivial browser_run on the session's page: what a script costs beyond its own work. */
async function timedRun(conn, page) {
  const started = performance.now();
  await conn.call('browser_run', { sessionId: page.sessionId, pageId: page.pageId, code: 'return 1' });
  return performance.now() - started;
}

const medianOf = (samples, field) =>
  samples.every((s) => Number.isFinite(s[field])) ? median(samples.map((s) => s[field])) : undefined;

async function referenceOnce(ctx) {
  const started = performance.now();
  const { browser } = await launchReference();
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(ctx.fixture.url('/quiet'));
    return performance.now() - started;
  } finally {
    await browser.close();
  }
}

export const coldStart = {
  name: 'coldStart',
  title: 'Cold start: spawn to first completed navigation',
  async run(ctx) {
    const rows = [];
    const times = Math.min(3, ctx.options.iterations);
    // The contenders take turns, one start each per round: a load that rises or falls during the run
    // (the machine is shared) falls on all of them, not on whichever went first.
    const samples = new Map(ctx.contenders.map((contender) => [contender, []]));
    const failed = new Map();
    for (let round = 0; round < times; round++) {
      for (const contender of ctx.contenders) {
        if (failed.has(contender)) continue;
        try {
          samples.get(contender).push(await coldOnce(ctx, contender));
        } catch (error) {
          failed.set(contender, error);
        }
      }
    }
    for (const contender of ctx.contenders) {
      rows.push(
        await attempt({ contender: contender.label }, async () => {
          if (failed.has(contender)) throw failed.get(contender);
          const taken = samples.get(contender);
          return {
            ms: medianOf(taken, 'ms'),
            initMs: medianOf(taken, 'initMs'),
            firstRunMs: medianOf(taken, 'firstRunMs'),
            warmRunMs: medianOf(taken, 'warmRunMs'),
            samples: taken.length,
          };
        }),
      );
    }
    if (ctx.options.reference) {
      rows.push(
        await attempt({ contender: REFERENCE_LABEL }, async () => {
          const samples = await repeat(times, () => referenceOnce(ctx));
          return { ms: median(samples), samples: samples.length };
        }),
      );
    }
    return { rows };
  },
};
