// snapshot: a full and an interactive-only snapshot of a large page (/large, ~3,000 elements) and
// of a form page (/forms) — characters, o200k tokens and capture time (the tool call's wall time).
// The reference row is playwright-core's own ariaSnapshot() of <body>, in process.

import { median } from '../lib/stats.mjs';
import { countTokens } from '../lib/tokens.mjs';
import { REFERENCE_LABEL, referenceSnapshot } from '../peers/reference.mjs';
import { attempt, repeat } from './attempt.mjs';

const PAGES = [
  { page: 'large', path: '/large' },
  { page: 'forms', path: '/forms' },
];

/**
 * "full" is the whole page (BrowserMesh is asked for its largest budget, so nothing is cut that the
 * peers would return); BrowserMesh's default-budget full snapshot is shown too, since that is what an
 * agent gets without options.
 */
const DEFAULT_BUDGET = 'full, default budget';
const MODES = [
  { mode: 'full', options: { interactiveOnly: false, budget: 'whole' } },
  { mode: DEFAULT_BUDGET, options: { interactiveOnly: false, budget: 'default' } },
  { mode: 'interactive', options: { interactiveOnly: true, budget: 'default' } },
];

/**
 * What BrowserMesh's refs cost in a snapshot text: how many there are and the tokens of the same text
 * without them (the goals' notes say what is left for refs once names and structure are paid).
 */
function refShare(text) {
  const refs = text.match(/ @e?\d+\b/g) ?? [];
  return { refs: refs.length, tokensWithoutRefs: countTokens(text.replace(/ @e?\d+\b/g, '')) };
}

/** Whether the result says it was cut by a budget (BrowserMesh reports partial/truncation). */
function wasCut(structured) {
  return Boolean(structured?.partial || structured?.truncation?.truncated || structured?.truncated);
}

/**
 * The capture an agent meets most: the default snapshot right after a navigation (a new document,
 * nothing cached in it yet), timed on each of `iterations` fresh loads of the page.
 */
export const FIRST_AFTER_NAVIGATION = 'first after navigation';

async function firstCaptures(ctx, contender, path) {
  const { conn, page } = await ctx.session(contender);
  const samples = await repeat(ctx.options.iterations, async () => {
    await contender.navigate(conn, page, ctx.fixture.url(path));
    return contender.snapshot(conn, page, { interactiveOnly: false, budget: 'default' });
  });
  return summary(samples);
}

/** The medians of a row's snapshots, and whether any was cut by a budget. */
function summary(samples) {
  return {
    chars: median(samples.map((s) => s.chars)),
    tokens: median(samples.map((s) => s.tokens)),
    ms: median(samples.map((s) => s.ms)),
    partial: samples.some((s) => wasCut(s.structured)),
    samples: samples.length,
  };
}

export const snapshot = {
  name: 'snapshot',
  title: 'Snapshot: full and interactive-only',
  async run(ctx) {
    const rows = [];
    const pages = ctx.options.quick ? PAGES.filter((p) => p.page === 'forms') : PAGES;
    for (const { page: pageName, path } of pages) {
      for (const contender of ctx.contenders) {
        for (const { mode, options } of MODES) {
          if (mode === DEFAULT_BUDGET && contender.id !== 'browsermesh') continue;
          const base = { contender: contender.label, page: pageName, mode };
          rows.push(
            await attempt(base, async () => {
              const { conn, page } = await ctx.session(contender);
              await contender.navigate(conn, page, ctx.fixture.url(path));
              const samples = await repeat(ctx.options.iterations, () =>
                contender.snapshot(conn, page, options),
              );
              if (samples.some((s) => s === undefined)) return { na: 'n/a (no interactive-only option)' };
              return {
                ...summary(samples),
                ...(contender.id === 'browsermesh' ? refShare(samples[0]?.text ?? '') : {}),
              };
            }),
          );
        }
        if (pageName === 'large') {
          const base = { contender: contender.label, page: pageName, mode: FIRST_AFTER_NAVIGATION };
          rows.push(await attempt(base, () => firstCaptures(ctx, contender, path)));
        }
      }
      if (ctx.options.reference) {
        rows.push(
          await attempt({ contender: REFERENCE_LABEL, page: pageName, mode: 'full' }, async () => {
            const page = await ctx.referencePage();
            await page.goto(ctx.fixture.url(path));
            const samples = await repeat(ctx.options.iterations, () => referenceSnapshot(page));
            await page.context().close();
            return {
              chars: median(samples.map((s) => s.chars)),
              tokens: median(samples.map((s) => s.tokens)),
              ms: median(samples.map((s) => s.ms)),
              samples: samples.length,
              note: 'locator("body").ariaSnapshot(), in process',
            };
          }),
        );
      }
    }
    return { rows };
  },
};
