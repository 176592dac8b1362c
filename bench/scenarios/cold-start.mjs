// cold start: from spawning the server to the first completed navigation — process start, MCP
// handshake, tools/list (every client lists tools first), whatever the server needs to get a page
// (a session for BrowserMesh, the page id for chrome-devtools-mcp) and one navigation, which
// launches the browser. The reference is playwright-core: launch, new context, new page, goto.

import { McpConnection } from '../lib/mcp.mjs';
import { median } from '../lib/stats.mjs';
import { REFERENCE_LABEL, launchReference } from '../peers/reference.mjs';
import { attempt, repeat } from './attempt.mjs';

async function coldOnce(ctx, contender) {
  const conn = new McpConnection(contender.serverSpec({ tmpDir: ctx.scratch(`cold-${contender.id}`) }));
  try {
    const started = performance.now();
    await conn.start();
    await conn.listTools();
    const page = await contender.open(conn);
    await contender.navigate(conn, page, ctx.fixture.url('/quiet'));
    return performance.now() - started;
  } finally {
    await conn.close();
  }
}

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
    for (const contender of ctx.contenders) {
      rows.push(
        await attempt({ contender: contender.label }, async () => {
          const samples = await repeat(times, () => coldOnce(ctx, contender));
          return { ms: median(samples), samples: samples.length };
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
