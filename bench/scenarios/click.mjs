// click latency: the wall time of one click call, median and p90 over 30 clicks on the
// "Increment" button of /actions/buttons, after one warm-up click. The page's counter is read
// afterwards to prove every click landed. Reference rows: playwright-core's page.click() (its
// full actionability checks) and three raw CDP mouse events (no checks: the floor).

import { median, p90 } from '../lib/stats.mjs';
import { RAW_CDP_LABEL, REFERENCE_LABEL, rawCdpClicks, referenceClicks } from '../peers/reference.mjs';
import { attempt } from './attempt.mjs';

function latency(samples) {
  return { medianMs: median(samples), p90Ms: p90(samples), samples: samples.length };
}

export const click = {
  name: 'click',
  title: 'Click latency',
  async run(ctx) {
    const rows = [];
    const count = ctx.options.quick ? 5 : 30;
    for (const contender of ctx.contenders) {
      const setup = await attempt({ contender: contender.label }, async () => {
        const { conn, page } = await ctx.session(contender);
        return { clicker: await contender.clicker(conn, page, ctx.fixture) };
      });
      if (!setup.clicker) {
        rows.push({ contender: contender.label, variant: 'ref', na: setup.na, error: setup.error });
        continue;
      }
      let expected = 0;
      for (const variant of setup.clicker.variants) {
        rows.push(
          await attempt({ contender: contender.label, variant: variant.name }, async () => {
            await variant.click();
            expected += 1;
            const calls = [];
            for (let i = 0; i < count; i++) {
              calls.push(await variant.click());
              expected += 1;
            }
            return { ...latency(calls.map((c) => c.ms)), resultTokens: median(calls.map((c) => c.tokens)) };
          }),
        );
      }
      const counted = await setup.clicker.count().catch(() => undefined);
      for (const row of rows.filter((r) => r.contender === contender.label))
        row.verified = counted === expected;
    }
    if (ctx.options.reference) {
      for (const [label, measure] of [
        [REFERENCE_LABEL, referenceClicks],
        [RAW_CDP_LABEL, rawCdpClicks],
      ]) {
        rows.push(
          await attempt(
            { contender: label, variant: label === RAW_CDP_LABEL ? 'move+press+release' : 'page.click()' },
            async () => {
              const page = await ctx.referencePage();
              await page.goto(ctx.fixture.url('/actions/buttons'));
              const samples = await measure(page, count);
              const text = (await page.locator('#count').textContent()) ?? '';
              await page.context().close();
              return { ...latency(samples), verified: text === `Count: ${count + 1}` };
            },
          ),
        );
      }
    }
    return { rows };
  },
};
