// checkout: the fixed shop flow (search, open product, add to cart, go to checkout, fill every
// field, pick a country, shipping and terms, submit, read the confirmation) — tool calls, tokens
// the model reads (results) and writes (arguments), and wall time. Each contender runs it with its
// own natural tool calls, one per step; in code mode as one call with the same Playwright script.
// Session setup (creating a session / finding the page) is not counted; it is the same once per task.

import { median, sum } from '../lib/stats.mjs';
import { REFERENCE_LABEL, referenceCheckout } from '../peers/reference.mjs';
import { attempt, repeat } from './attempt.mjs';

/** The flows each contender offers, by adapter method. */
const FLOWS = [
  { mode: 'per-step, refs from snapshots', method: 'checkout' },
  { mode: 'per-step, locators (no snapshots)', method: 'locatorCheckout' },
  { mode: 'code mode: one Playwright script', method: 'codeCheckout' },
  { mode: 'code mode: one batch of actions', method: 'actionsCheckout' },
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

export const checkout = {
  name: 'checkout',
  title: 'Checkout on the fixture shop',
  async run(ctx) {
    const rows = [];
    for (const contender of ctx.contenders) {
      for (const { mode, method } of FLOWS) {
        if (typeof contender[method] !== 'function') continue;
        if (ctx.options.quick && method !== 'checkout') continue;
        rows.push(
          await attempt({ contender: contender.label, mode }, async () => {
            const { conn, page } = await ctx.session(contender);
            const runs = await repeat(ctx.options.iterations, async () => {
              conn.resetLog();
              const started = performance.now();
              await contender[method](conn, page, ctx.fixture);
              const wallMs = performance.now() - started;
              return { log: conn.takeLog(), wallMs };
            });
            return summarize(runs);
          }),
        );
      }
    }
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
