// find: "find the Add to cart button on /big and click it" — once by reading the whole snapshot,
// once with a find tool — and what the model reads and writes for it (o200k tokens of every result
// and argument, the click included). BrowserMesh's browser_find and @playwright/mcp's browser_find
// (its core capability, on by default) side by side; a server without a find tool shows n/a.

import { median } from '../lib/stats.mjs';
import { findRef, parseBrowserMesh, parsePlaywright } from '../lib/refs.mjs';
import { NotAvailable } from '../peers/browsermesh.mjs';
import { attempt, repeat } from './attempt.mjs';

const PATH = '/big';

/** Per contender: how to ask for the page's refs, how to find the one button, how to click a ref. */
const WAYS = {
  browsermesh: {
    snapshot: (conn, page, contender) => contender.snapshot(conn, page, { interactiveOnly: false }),
    find: (conn, page) => conn.call('browser_find', { ...page, role: 'button', name: 'Add to cart' }),
    // find prefixes each match with its number; the line after it is the snapshot's own.
    parse: (text) => parseBrowserMesh(text.replace(/^\d+\. /gm, '')),
    click: (conn, page, ref) => conn.call('browser_click', { ...page, ref }),
    check: (conn, page) => conn.call('browser_find', { ...page, text: 'Cart: ' }),
  },
  'playwright-mcp': {
    snapshot: (conn) => conn.call('browser_snapshot', {}),
    find: (conn) => conn.call('browser_find', { text: 'Add to cart' }),
    parse: parsePlaywright,
    click: (conn, _page, ref) => conn.call('browser_click', { target: ref }),
    check: (conn) => conn.call('browser_find', { text: 'Cart: ' }),
  },
};

async function flow(ctx, contender, way, mode) {
  const { conn, page } = await ctx.session(contender);
  await contender.navigate(conn, page, ctx.fixture.url(PATH));
  const calls = [];
  const look = await (mode === 'find' ? way.find(conn, page) : way.snapshot(conn, page, contender));
  calls.push(look);
  const ref = findRef(way.parse(look.text), 'button', 'Add to cart', contender.label);
  calls.push(await way.click(conn, page, ref));
  const check = await way.check(conn, page);
  if (!check.text.includes('Cart: 1')) throw new Error(`${contender.label}: the click did not land`);
  return {
    lookTokens: look.tokens,
    tokens: calls.reduce((sum, c) => sum + c.tokens + c.argTokens, 0),
    ms: calls.reduce((sum, c) => sum + c.ms, 0),
  };
}

export const find = {
  name: 'find',
  title: 'Find one button on /big and click it: snapshot vs find',
  async run(ctx) {
    const rows = [];
    for (const contender of ctx.contenders) {
      for (const mode of ['snapshot', 'find']) {
        rows.push(
          await attempt({ contender: contender.label, mode }, async () => {
            const way = WAYS[contender.id];
            if (!way) throw new NotAvailable('browser_find', 'is not offered by this server');
            const samples = await repeat(ctx.options.iterations, () => flow(ctx, contender, way, mode));
            return {
              lookTokens: median(samples.map((s) => s.lookTokens)),
              tokens: median(samples.map((s) => s.tokens)),
              ms: median(samples.map((s) => s.ms)),
              samples: samples.length,
              verified: true,
            };
          }),
        );
      }
    }
    return { rows };
  },
};
