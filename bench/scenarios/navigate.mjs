// navigate: the size of what one navigation to a large page (~3,000 elements) sends back to the
// model, and how long the call takes.

import { median } from '../lib/stats.mjs';
import { attempt, repeat } from './attempt.mjs';

export const navigate = {
  name: 'navigate',
  title: 'Navigate: result size of one navigation to /large',
  async run(ctx) {
    const rows = [];
    const url = ctx.fixture.url('/large');
    for (const contender of ctx.contenders) {
      rows.push(
        await attempt({ contender: contender.label }, async () => {
          const { conn, page } = await ctx.session(contender);
          const samples = await repeat(ctx.options.iterations, async () => {
            await contender.navigate(conn, page, ctx.fixture.url('/quiet'));
            return contender.navigate(conn, page, url);
          });
          return {
            chars: median(samples.map((s) => s.chars)),
            tokens: median(samples.map((s) => s.tokens)),
            ms: median(samples.map((s) => s.ms)),
            samples: samples.length,
            example: samples[0]?.text.slice(0, 400),
          };
        }),
      );
    }
    return { rows };
  },
};
