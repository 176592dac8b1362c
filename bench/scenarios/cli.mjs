// cli: the shop checkout driven through shell commands, as a coding agent drives a CLI — the
// browsermesh shell face next to playwright-cli and agent-browser. Per contender: commands, what the
// agent reads (stdout + stderr + files the output points to: characters and o200k tokens), wall time
// with every process spawn; the per-command median of a click by ref on a warm daemon; skill size;
// for browsermesh, whether two named sessions are isolated.

import { countTokens } from '../lib/tokens.mjs';
import { median } from '../lib/stats.mjs';
import { agentBrowserCli, browsermeshCli, playwrightCli } from '../lib/shell-clis.mjs';
import { attempt } from './attempt.mjs';

const CLICKS = 15;
const FIELDS = [
  ['Full name', 'Ada Lovelace'],
  ['Email', 'ada@example.com'],
  ['Address', '12 Analytical St'],
  ['City', 'Berlin'],
  ['Postal code', '10115'],
];

/** One agent's transcript: every command, and everything it had to read. */
function transcript(cli) {
  const log = { commands: 0, chars: 0, tokens: 0, ms: 0, files: 0 };
  const exec = async (args, session) => {
    const result = await cli.run(args, session);
    const files = cli.files(result.out);
    const read = [result.out, ...files].join('\n');
    log.commands++;
    log.files += files.length;
    log.chars += read.length;
    log.tokens += countTokens(read);
    log.ms += result.ms;
    if (result.status !== 0)
      throw new Error(`${args[0]} exited ${result.status}: ${result.out.slice(0, 200)}`);
    return read;
  };
  return { log, exec };
}

function refOrThrow(cli, text, role, name) {
  const ref = cli.ref(text, role, name);
  if (!ref) throw new Error(`no ${role} "${name}" in ${cli.label}'s snapshot`);
  return ref;
}

async function checkout(cli, url) {
  const { log, exec } = transcript(cli);
  await exec(cli.open(url('/shop/product/2')));
  let snap = await exec(cli.snapshot);
  await exec(['click', refOrThrow(cli, snap, 'button', 'Add to cart')]);
  await exec(cli.goto(url('/shop/checkout')));
  snap = await exec(cli.snapshot);
  for (const [label, value] of FIELDS) await exec(['fill', refOrThrow(cli, snap, 'textbox', label), value]);
  await exec(cli.select(refOrThrow(cli, snap, 'combobox', 'Country'), 'Germany'));
  await exec(['check', refOrThrow(cli, snap, 'radio', 'Express')]);
  await exec(['check', refOrThrow(cli, snap, 'checkbox', 'I accept the terms')]);
  const placed = await exec(['click', refOrThrow(cli, snap, 'button', 'Place order')]);
  const done = await exec(cli.snapshot);
  // The order went through: the click reports the confirmation URL, or the next page shows it.
  return { ...log, verified: /confirmation|order number|Thank you/i.test(`${placed}\n${done}`) };
}

async function clicks(cli, url) {
  const { exec } = transcript(cli);
  await exec(cli.goto(url('/actions/buttons')));
  const ref = refOrThrow(cli, await exec(cli.snapshot), 'button', 'Increment');
  const samples = [];
  for (let i = 0; i < CLICKS; i++) {
    const result = await cli.run(['click', ref]);
    if (result.status !== 0) throw new Error(`click exited ${result.status}`);
    samples.push(result.ms);
  }
  return { clickMedianMs: median(samples), clicks: samples.length };
}

/** Two named sessions of one daemon: a cart filled in one stays empty in the other. */
async function isolation(cli, url) {
  const { exec } = transcript(cli);
  await exec(cli.open(url('/shop/product/2')), 'iso-a');
  await exec(['click', refOrThrow(cli, await exec(cli.snapshot, 'iso-a'), 'button', 'Add to cart')], 'iso-a');
  await exec(cli.open(url('/shop/cart')), 'iso-b');
  return { isolated: (await exec(cli.snapshot, 'iso-b')).includes('Cart (0)') };
}

export const cli = {
  name: 'cli',
  title: 'CLI: the shop checkout through shell commands (browsermesh, playwright-cli, agent-browser)',
  async run(ctx) {
    const url = (path) => ctx.fixture.url(path);
    const rows = [];
    for (const make of [browsermeshCli, playwrightCli, agentBrowserCli]) {
      const cli = make();
      rows.push(
        await attempt({ contender: cli.label, version: cli.version }, async () => {
          try {
            const skill = await cli.skill();
            const row = {
              ...(await checkout(cli, url)),
              ...(await clicks(cli, url)),
              skillTokens: countTokens(skill),
            };
            if (cli.label === 'browsermesh CLI') Object.assign(row, await isolation(cli, url));
            row.msPerCommand = row.ms / row.commands;
            return row;
          } finally {
            await cli.close();
          }
        }),
      );
    }
    return { rows };
  },
};
