// checkout: the fixed shop flow (search, open product, add to cart, go to checkout, fill every
// field, pick a country, shipping and terms, submit, read the confirmation) — tool calls, tokens
// the model reads (results) and writes (arguments), and wall time. Each contender runs it with its
// own natural tool calls, one per step; in code mode as one call with the same Playwright script.
// Session setup (creating a session / finding the page) is not counted; it is the same once per task.

import { median, sum } from '../lib/stats.mjs';
import { REFERENCE_LABEL, referenceCheckout } from '../peers/reference.mjs';
import { attempt, repeat } from './attempt.mjs';
import { NotAvailable } from '../peers/browsermesh.mjs';
import { progress } from '../lib/progress.mjs';
import { startPlaywrightServer } from '../lib/playwright-server.mjs';
import {
  browserMeshOnPlaywrightServer,
  PLAYWRIGHT_PROVIDER_LABEL,
} from '../peers/browsermesh-playwright.mjs';

/** The flows each contender offers, by adapter method. */
const FLOWS = [
  { mode: 'per-step, refs from snapshots', method: 'checkout' },
  { mode: 'per-step, locators (no snapshots)', method: 'locatorCheckout' },
  { mode: 'code mode: one Playwright script', method: 'codeCheckout' },
  { mode: 'code mode: one batch of actions', method: 'actionsCheckout' },
  { mode: 'replay of its exported spec (no model)', method: 'replayCheckout' },
];

function summarize(runs) {
  const per = runs.map(({ log, wallMs }) => ({
    calls: log.length,
    resultChars: sum(log.map((c) => c.chars)),
    resultTokens: sum(log.map((c) => c.tokens)),
    argTokens: sum(log.map((c) => c.argTokens)),
    wallMs,
    tools: log.map((c) => c.tool),
  }));
  const pick = (field) => median(per.map((p) => p[field]));
  const resultTokens = pick('resultTokens');
  const argTokens = pick('argTokens');
  return {
    calls: pick('calls'),
    resultChars: pick('resultChars'),
    resultTokens,
    argTokens,
    totalTokens: resultTokens + argTokens,
    wallMs: pick('wallMs'),
    samples: per.length,
    tools: per[0]?.tools,
  };
}

/**
 * A contender's flows, taken in turn within each iteration (flow A, B, C, then A, B, C again…), so a
 * machine whose load drifts during the run weighs on every flow alike; one flow after the other let
 * a rising load fall on whichever ran last (code mode), and the goals compare these flows. A flow
 * that fails (or is not offered) is reported as such and left out of the next iterations.
 */
async function interleaved(ctx, contender) {
  const flows = FLOWS.filter(
    ({ method }) => typeof contender[method] === 'function' && (!ctx.options.quick || method === 'checkout'),
  ).map((flow) => ({ ...flow, runs: [], failure: undefined }));
  if (flows.length === 0) return [];
  const base = (flow) => ({ contender: contender.label, mode: flow.mode });
  const opened = await attempt({ contender: contender.label }, () => ctx.session(contender));
  if (opened.error) return flows.map((flow) => ({ ...base(flow), error: opened.error }));
  const { conn, page } = opened;
  await repeat(ctx.options.iterations, async () => {
    for (const flow of flows) {
      if (flow.failure) continue;
      try {
        conn.resetLog();
        const started = performance.now();
        await contender[flow.method](conn, page, ctx.fixture);
        flow.runs.push({ wallMs: performance.now() - started, log: conn.takeLog() });
      } catch (error) {
        flow.failure = error instanceof NotAvailable ? { na: error.message } : failed(contender, error);
      }
    }
  });
  return flows.map((flow) => ({ ...base(flow), ...(flow.failure ?? summarize(flow.runs)) }));
}

function failed(contender, error) {
  const message = String(error?.message ?? error).slice(0, 300);
  progress(`  ${message.startsWith(`${contender.label}:`) ? message : `${contender.label}: ${message}`}`);
  return { error: message };
}

/**
 * BrowserMesh's flows again with its sessions on a `playwright run-server` on 127.0.0.1 (the
 * playwright provider, every connection tunneled back through the guard), as rows next to the local
 * ones. Not in --quick: the server and its browser cost a few seconds to start.
 */
async function onPlaywrightServer(ctx) {
  const label = PLAYWRIGHT_PROVIDER_LABEL;
  const started = await attempt({ contender: label }, () => startPlaywrightServer());
  if (started.error) return [{ contender: label, mode: FLOWS[0].mode, error: started.error }];
  const contender = browserMeshOnPlaywrightServer(started.endpoint);
  try {
    return await interleaved(ctx, contender);
  } finally {
    await ctx.closeSession(contender).catch(() => undefined);
    await started.stop();
  }
}

export const checkout = {
  name: 'checkout',
  title: 'Checkout on the fixture shop',
  async run(ctx) {
    const rows = [];
    for (const contender of ctx.contenders) rows.push(...(await interleaved(ctx, contender)));
    if (!ctx.options.quick) rows.push(...(await onPlaywrightServer(ctx)));
    if (ctx.options.reference) {
      rows.push(
        await attempt(
          { contender: REFERENCE_LABEL, mode: 'same Playwright script, in process' },
          async () => {
            const page = await ctx.referencePage();
            await page.goto(ctx.fixture.url('/quiet'));
            const walls = await repeat(ctx.options.iterations, async () => {
              const started = performance.now();
              await referenceCheckout(page, ctx.fixture.origin);
              return performance.now() - started;
            });
            await page.context().close();
            return { calls: 0, wallMs: median(walls), samples: walls.length };
          },
        ),
      );
    }
    return { rows };
  },
};
