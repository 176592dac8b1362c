// The CLI section of the report: the same checkout through three shell CLIs, what the model reads and
// writes and how long it takes, BrowserMesh's value divided by each peer's, and the shell face's goals.

import { fmtInt, fmtMs } from './format.mjs';
import { cliGoals } from './goals-cli.mjs';
import { goal, notMeasured } from './goals.mjs';
import { cells, ratioCell, table, usable } from './table.mjs';

const BM = 'browsermesh CLI';

function resultText(met) {
  if (met === true) return 'met';
  if (met === false) return 'MISSED';
  return 'not measured';
}

function goalLines(rows) {
  return cliGoals({ cli: { rows } }, goal, notMeasured).map((g) => {
    const why = g.note ? ` (${g.note})` : '';
    return `- ${g.goal}, target ${g.target}: ${g.measured}${why} — **${resultText(g.met)}**`;
  });
}

export function cliSection(rows) {
  const bm = rows.find((r) => r.contender === BM && usable(r, 'tokens'));
  const versus = (r, field) => (r.contender === BM || !bm ? '' : ratioCell(bm[field], r[field]));
  const measured = table(
    [
      'CLI',
      'Version',
      'Commands',
      'Files opened',
      'Read chars',
      'Read tokens',
      'Written tokens',
      'Wall time',
      'Per command',
      'First open',
      'Click median',
      'Skill tokens',
      'BM ÷ row (read tokens)',
      'BM ÷ row (written tokens)',
      'BM ÷ row (wall time)',
      'BM ÷ row (click median)',
    ],
    rows.map((r) => [
      r.contender,
      r.version,
      ...cells(
        r,
        (x) => [
          fmtInt(x.commands),
          fmtInt(x.files),
          fmtInt(x.chars),
          fmtInt(x.tokens),
          fmtInt(x.writtenTokens),
          fmtMs(x.ms),
          fmtMs(x.msPerCommand),
          fmtMs(x.launchMs),
          fmtMs(x.clickMedianMs),
          fmtInt(x.skillTokens),
          versus(x, 'tokens'),
          versus(x, 'writtenTokens'),
          versus(x, 'ms'),
          versus(x, 'clickMedianMs'),
        ],
        14,
      ),
    ]),
  );
  return [measured, '', 'Goals for the shell face:', '', ...goalLines(rows)].join('\n');
}

export const CLI_ABOUT =
  'The shop checkout (product page → add to cart → checkout → five fields, country, shipping, terms → place order → read the confirmation) as a coding agent runs it: one spawned process per command, refs from each CLI\'s own snapshot (browsermesh `snapshot -i`, agent-browser `snapshot -i`, playwright-cli `snapshot`, which has no interactive-only mode), the order confirmed at the end. "Read" is everything the agent reads: stdout, stderr and every snapshot file the output links to (playwright-cli writes one after each navigation or click); "written" is the command lines the model writes. Wall time adds up every command, spawn included; the first `open`, which starts the browser or daemon, is timed apart ("First open"). The contenders take turns (A, B, C) in each checkout iteration and for each click, so a change of load weighs on all alike. Medians of up to 3 checkouts. "Click median" is one click by ref on a warm browser, 15 times per contender, interleaved, the counter read afterwards. Skill tokens: what the agent loads (browsermesh `skills/browsermesh/SKILL.md`; playwright-cli its SKILL.md; agent-browser its stub plus `skills get core`). Each peer runs off the network (`--no-sandbox`, proxy 127.0.0.1:9, update checks off).';
