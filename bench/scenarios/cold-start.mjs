// cold start: from spawning the server to the first completed navigation — process start, MCP
// handshake, tools/list (every client lists tools first), whatever the server needs to get a page
// (a session for BrowserMesh, the page id for chrome-devtools-mcp) and one navigation, which
// launches the browser. The reference is playwright-core: launch, new context, new page, goto.
// Also recorded: spawn → `initialize` answered (the handshake alone), and for BrowserMesh the first
// `browser_run` of the process next to the second one (a cold sandbox worker shows as the gap).
// BrowserMesh is measured twice: as its own row, the way an agent starts by the tool descriptions
// (browser_session_create, then browser_navigate), and as a separate row, the one-call form
// (browser_navigate with no session opens one); the goal is judged on the first.

import { McpConnection } from '../lib/mcp.mjs';
import { median } from '../lib/stats.mjs';
import { REFERENCE_LABEL, launchReference } from '../peers/reference.mjs';
import { attempt, repeat } from './attempt.mjs';

/** The row label of BrowserMesh's one-call form. */
export const ONE_CALL_LABEL = 'BrowserMesh, one call (browser_navigate opens the session)';

/** BrowserMesh's one-call form: the first navigation opens the session and returns its ids. */
async function navigateOpening(conn, url) {
  const { structured } = await conn.call('browser_navigate', { url });
  return { sessionId: structured.session.sessionId, pageId: structured.session.pageId };
}

async function coldOnce(ctx, contender, oneCall = false) {
  const conn = new McpConnection(contender.serverSpec({ tmpDir: ctx.scratch(`cold-${contender.id}`) }));
  try {
    const started = performance.now();
    const initMs = await conn.start();
    await conn.listTools();
    const url = ctx.fixture.url('/quiet');
    let page;
    if (oneCall) page = await navigateOpening(conn, url);
    else {
      page = await contender.open(conn);
      await contender.navigate(conn, page, url);
    }
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
    const times = Math.min(5, ctx.options.iterations);
    // The contenders take turns, one start each per round: a load that rises or falls during the run
    // (the machine is shared) falls on all of them, not on whichever went first.
    const entries = ctx.contenders.flatMap((contender) => [
      { contender, label: contender.label, oneCall: false },
      ...(contender.id === 'browsermesh' ? [{ contender, label: ONE_CALL_LABEL, oneCall: true }] : []),
    ]);
    const samples = new Map(entries.map((entry) => [entry, []]));
    const failed = new Map();
    for (let round = 0; round < times; round++) {
      for (const entry of entries) {
        if (failed.has(entry)) continue;
        try {
          samples.get(entry).push(await coldOnce(ctx, entry.contender, entry.oneCall));
        } catch (error) {
          failed.set(entry, error);
        }
      }
    }
    for (const entry of entries) {
      rows.push(
        await attempt({ contender: entry.label }, async () => {
          if (failed.has(entry)) throw failed.get(entry);
          const taken = samples.get(entry);
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
