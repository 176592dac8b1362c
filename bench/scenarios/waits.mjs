// waits:
// - late content: text that appears 1.5 s after load (/bench/late, which stamps the moment it
//   entered the DOM). Measured: how long after its appearance the wait call returned to the client.
// - quiet sleep (code mode): an 8 s sleep on a page that is already quiet (/quiet); seed 002's
//   lesson is that it should end once the page has been quiet for 500 ms.

import { appearedAtIn, LATE_TEXT } from '../lib/flows.mjs';
import { median } from '../lib/stats.mjs';
import { REFERENCE_LABEL, referenceLateWait } from '../peers/reference.mjs';
import { NotAvailable } from '../peers/browsermesh.mjs';
import { attempt, repeat } from './attempt.mjs';

const LATE_MS = 1500;
const SLEEP_MS = 8000;

async function lateOnce(ctx, contender, conn, page) {
  await contender.navigate(conn, page, ctx.fixture.url(`/bench/late?ms=${LATE_MS}`));
  const record = await contender.waitForText(conn, page, LATE_TEXT);
  const seenAt = Date.now();
  const appearedAt = appearedAtIn(record.text) ?? appearedAtIn(await contender.readText(conn, page));
  if (appearedAt === undefined)
    throw new Error(`${contender.label}: the late content was not there after the wait`);
  return { ms: record.ms, latenessMs: seenAt - appearedAt };
}

export const waits = {
  name: 'waits',
  title: 'Waits',
  async run(ctx) {
    const rows = [];
    for (const contender of ctx.contenders) {
      rows.push(
        await attempt({ contender: contender.label, kind: 'late content (1.5 s)' }, async () => {
          const { conn, page } = await ctx.session(contender);
          const samples = await repeat(ctx.options.iterations, () => lateOnce(ctx, contender, conn, page));
          return {
            latenessMs: median(samples.map((s) => s.latenessMs)),
            ms: median(samples.map((s) => s.ms)),
            samples: samples.length,
          };
        }),
      );
    }
    if (ctx.options.reference) {
      for (const [how, note] of [
        ['locator', 'getByText().waitFor()'],
        ['mutation', 'a MutationObserver in the page'],
      ]) {
        rows.push(
          await attempt({ contender: REFERENCE_LABEL, kind: 'late content (1.5 s)', note }, async () => {
            const page = await ctx.referencePage();
            const samples = await repeat(ctx.options.iterations, () =>
              referenceLateWait(page, ctx.fixture.url(`/bench/late?ms=${LATE_MS}`), how),
            );
            await page.context().close();
            return {
              latenessMs: median(samples.map((s) => s.latenessMs)),
              ms: median(samples.map((s) => s.ms)),
              samples: samples.length,
            };
          }),
        );
      }
    }
    if (ctx.options.quick) return { rows };
    for (const contender of ctx.contenders) {
      rows.push(
        await attempt({ contender: contender.label, kind: 'quiet 8 s sleep (code mode)' }, async () => {
          if (typeof contender.quietSleep !== 'function') throw new NotAvailable('code mode', 'not offered');
          const { conn, page } = await ctx.session(contender);
          await contender.navigate(conn, page, ctx.fixture.url('/quiet'));
          const samples = await repeat(Math.min(3, ctx.options.iterations), () =>
            contender.quietSleep(conn, page, SLEEP_MS),
          );
          return { ms: median(samples.map((s) => s.ms)), samples: samples.length };
        }),
      );
    }
    return { rows };
  },
};
