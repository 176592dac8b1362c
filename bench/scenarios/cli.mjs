// cli: the shop checkout driven through shell commands, as a coding agent drives a CLI — the
// browsermesh shell face next to playwright-cli and agent-browser. Per contender: commands, what the
// agent reads (stdout + stderr + files the output points to: characters and o200k tokens), what it
// writes (the command lines), wall time with every process spawn; the per-command median of a click
// by ref on a warm daemon; skill size; for browsermesh, whether two named sessions are isolated.
// Contenders take turns (A, B, C) within each checkout iteration and each click, each on its own
// browser in the same page state, so a change of load during the run weighs on all of them alike.

import { countTokens } from '../lib/tokens.mjs';
import { median, medianFields } from '../lib/stats.mjs';
import { agentBrowserCli, browsermeshCli, playwrightCli } from '../lib/shell-clis.mjs';
import { NotAvailable } from '../peers/browsermesh.mjs';
import { progress } from '../lib/progress.mjs';

const CLICKS = 15;
const FIELDS = [
  ['Full name', 'Ada Lovelace'],
  ['Email', 'ada@example.com'],
  ['Address', '12 Analytical St'],
  ['City', 'Berlin'],
  ['Postal code', '10115'],
];
const MEASURED = ['commands', 'files', 'chars', 'tokens', 'writtenTokens', 'ms'];

/** One agent's transcript: every command, everything it had to read and everything it wrote. */
function transcript(cli) {
  const log = { commands: 0, files: 0, chars: 0, tokens: 0, writtenTokens: 0, ms: 0 };
  const exec = async (args, session) => {
    const result = await cli.run(args, session);
    const files = cli.files(result.out);
    const read = [result.out, ...files].join('\n');
    log.commands++;
    log.files += files.length;
    log.chars += read.length;
    log.tokens += countTokens(read);
    log.writtenTokens += countTokens(cli.written(args, session));
    log.ms += result.ms;
    if (result.status !== 0)
      throw new Error(`${args[0]} exited ${result.status}: ${result.out.slice(0, 200)}`);
    return read;
  };
  return { log, exec };
}

/** The checkout from the product page on a running browser: refs come from each CLI's own snapshot. */
async function checkout(cli, url) {
  const { log, exec } = transcript(cli);
  await exec(cli.goto(url('/shop/product/2')));
  let snap = await exec(cli.snapshot);
  await exec(['click', cli.ref(snap, 'button', 'Add to cart')]);
  await exec(cli.goto(url('/shop/checkout')));
  snap = await exec(cli.snapshot);
  for (const [label, value] of FIELDS) await exec(['fill', cli.ref(snap, 'textbox', label), value]);
  await exec(cli.select(cli.ref(snap, 'combobox', 'Country'), 'Germany'));
  await exec(['check', cli.ref(snap, 'radio', 'Express')]);
  await exec(['check', cli.ref(snap, 'checkbox', 'I accept the terms')]);
  const placed = await exec(['click', cli.ref(snap, 'button', 'Place order')]);
  const done = await exec(cli.snapshot);
  // The order went through: the click reports the confirmation URL, or the next page shows it.
  if (!/confirmation|order number|Thank you/i.test(`${placed}\n${done}`))
    throw new Error(`the order was not confirmed; last output: ${done.slice(0, 200)}`);
  return log;
}

/** Opens the click page and finds the button's ref in the CLI's own snapshot. */
async function clickRef(cli, url) {
  const { exec } = transcript(cli);
  await exec(cli.goto(url('/actions/buttons')));
  return cli.ref(await exec(cli.snapshot), 'button', 'Increment');
}

/** One warm click by ref; its wall time, spawn included. */
async function clickOnce(cli, ref) {
  const result = await cli.run(['click', ref]);
  if (result.status !== 0) throw new Error(`click exited ${result.status}: ${result.out.slice(0, 200)}`);
  return result.ms;
}

/** The page's counter, read after the clicks, proves each landed. */
async function clicksLanded(cli, count) {
  const { exec } = transcript(cli);
  const after = await exec(cli.fullSnapshot);
  if (!after.includes(`Count: ${count}`)) throw new Error(`${count} clicks did not all land`);
}

/** Two named sessions of one daemon: a cart filled in one stays empty in the other. */
async function isolation(cli, url) {
  const { exec } = transcript(cli);
  await exec(cli.open(url('/shop/product/2')), 'iso-a');
  await exec(['click', cli.ref(await exec(cli.snapshot, 'iso-a'), 'button', 'Add to cart')], 'iso-a');
  await exec(cli.open(url('/shop/cart')), 'iso-b');
  return { isolated: (await exec(cli.snapshot, 'iso-b')).includes('Cart (0)') };
}

/**
 * Runs `step` for every contender still in the race, one after the other (A, B, C), so load that
 * changes during the run weighs on each alike; a contender whose step fails leaves with its error.
 */
async function turn(contenders, step) {
  for (const c of contenders) {
    if (c.row.error !== undefined || c.row.na !== undefined) continue;
    try {
      await step(c);
    } catch (error) {
      c.row.error = String(error?.message ?? error).slice(0, 300);
      progress(`  ${c.cli.label}: ${c.row.error}`);
    }
  }
}

/** Every contender's launch, checkouts and clicks, interleaved per iteration and per click. */
async function measureAll(contenders, url, iterations) {
  await turn(contenders, async (c) => {
    c.row.skillTokens = countTokens(await c.cli.skill());
    // The first `open` starts the browser (or daemon): timed apart, as session setup is elsewhere.
    const launch = await c.cli.run(c.cli.open(url('/shop/')));
    if (launch.status !== 0) throw new Error(`open exited ${launch.status}: ${launch.out.slice(0, 200)}`);
    c.row.launchMs = launch.ms;
  });
  for (let i = 0; i < iterations; i++)
    await turn(contenders, async (c) => c.runs.push(await checkout(c.cli, url)));
  await turn(contenders, async (c) => {
    Object.assign(c.row, medianFields(c.runs, MEASURED), { runs: c.runs.length });
    c.row.msPerCommand = c.row.ms / c.row.commands;
    c.ref = await clickRef(c.cli, url);
  });
  for (let i = 0; i < CLICKS; i++)
    await turn(contenders, async (c) => c.clicks.push(await clickOnce(c.cli, c.ref)));
  await turn(contenders, async (c) => {
    await clicksLanded(c.cli, CLICKS);
    Object.assign(c.row, { clickMedianMs: median(c.clicks), clicks: c.clicks.length });
    if (c.cli.label === 'browsermesh CLI') Object.assign(c.row, await isolation(c.cli, url));
  });
}

export const cli = {
  name: 'cli',
  title: 'CLI: the shop checkout through shell commands (browsermesh, playwright-cli, agent-browser)',
  async run(ctx) {
    const url = (path) => ctx.fixture.url(path);
    // Every spawn costs seconds on the slow peers: a few checkouts give a stable median.
    const iterations = Math.min(ctx.options.iterations, 3);
    const contenders = [browsermeshCli, playwrightCli, agentBrowserCli].map((make) => {
      const cli = make();
      const row = { contender: cli.label, version: cli.version };
      const unavailable = cli.unavailable();
      if (unavailable) row.na = new NotAvailable(cli.label, `cannot run here: ${unavailable}`).message;
      return { cli, row, runs: [], clicks: [], ref: undefined };
    });
    try {
      await measureAll(contenders, url, iterations);
    } finally {
      for (const c of contenders) await c.cli.close().catch(() => undefined);
    }
    const rows = contenders.map((c) => c.row);
    return { rows };
  },
};
