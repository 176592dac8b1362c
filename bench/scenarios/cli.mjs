// cli: the shop checkout driven through shell commands, as a coding agent drives a CLI — the
// browsermesh shell face next to playwright-cli and agent-browser. Per contender: commands, what the
// agent reads (stdout + stderr + files the output points to: characters and o200k tokens), what it
// writes (the command lines), wall time with every process spawn; the per-command median of a click
// by ref on a warm daemon; skill size; for browsermesh, whether two named sessions are isolated.

import { countTokens } from '../lib/tokens.mjs';
import { median, medianFields } from '../lib/stats.mjs';
import { agentBrowserCli, browsermeshCli, playwrightCli } from '../lib/shell-clis.mjs';
import { NotAvailable } from '../peers/browsermesh.mjs';
import { attempt, repeat } from './attempt.mjs';

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

/** Clicks by one ref on a warm browser; the page's counter, read afterwards, proves each landed. */
async function clicks(cli, url) {
  const { exec } = transcript(cli);
  await exec(cli.goto(url('/actions/buttons')));
  const ref = cli.ref(await exec(cli.snapshot), 'button', 'Increment');
  const samples = [];
  for (let i = 0; i < CLICKS; i++) {
    const result = await cli.run(['click', ref]);
    if (result.status !== 0) throw new Error(`click exited ${result.status}: ${result.out.slice(0, 200)}`);
    samples.push(result.ms);
  }
  const after = await exec(cli.fullSnapshot);
  if (!after.includes(`Count: ${CLICKS}`)) throw new Error(`${CLICKS} clicks did not all land`);
  return { clickMedianMs: median(samples), clicks: samples.length };
}

/** Two named sessions of one daemon: a cart filled in one stays empty in the other. */
async function isolation(cli, url) {
  const { exec } = transcript(cli);
  await exec(cli.open(url('/shop/product/2')), 'iso-a');
  await exec(['click', cli.ref(await exec(cli.snapshot, 'iso-a'), 'button', 'Add to cart')], 'iso-a');
  await exec(cli.open(url('/shop/cart')), 'iso-b');
  return { isolated: (await exec(cli.snapshot, 'iso-b')).includes('Cart (0)') };
}

async function measure(cli, url, iterations) {
  const skillTokens = countTokens(await cli.skill());
  // The first `open` starts the browser (or daemon): timed apart, as session setup is elsewhere.
  const launch = await cli.run(cli.open(url('/shop/')));
  if (launch.status !== 0) throw new Error(`open exited ${launch.status}: ${launch.out.slice(0, 200)}`);
  const runs = await repeat(iterations, () => checkout(cli, url));
  const row = { ...medianFields(runs, MEASURED), runs: runs.length, launchMs: launch.ms, skillTokens };
  Object.assign(row, await clicks(cli, url));
  if (cli.label === 'browsermesh CLI') Object.assign(row, await isolation(cli, url));
  row.msPerCommand = row.ms / row.commands;
  return row;
}

export const cli = {
  name: 'cli',
  title: 'CLI: the shop checkout through shell commands (browsermesh, playwright-cli, agent-browser)',
  async run(ctx) {
    const url = (path) => ctx.fixture.url(path);
    // Every spawn costs seconds on the slow peers: a few checkouts give a stable median.
    const iterations = Math.min(ctx.options.iterations, 3);
    const rows = [];
    for (const make of [browsermeshCli, playwrightCli, agentBrowserCli]) {
      const cli = make();
      rows.push(
        await attempt({ contender: cli.label, version: cli.version }, async () => {
          try {
            const unavailable = cli.unavailable();
            if (unavailable) throw new NotAvailable(cli.label, `cannot run here: ${unavailable}`);
            return await measure(cli, url, iterations);
          } finally {
            await cli.close();
          }
        }),
      );
    }
    return { rows };
  },
};
