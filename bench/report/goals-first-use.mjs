// Goals for where a user first meets BrowserMesh (startup, first navigation, first script),
// snapshot capture time, what one script costs against the calls it replaces, tools/list tokens per
// tool and CPU per checkout under load. Same rules as goals.mjs: met, missed, or not measured.

import { ratio } from '../lib/stats.mjs';
import { REFERENCE_LABEL } from '../peers/reference.mjs';
import { ONE_CALL_LABEL } from '../scenarios/cold-start.mjs';
import { FIRST_AFTER_NAVIGATION } from '../scenarios/snapshot.mjs';
import { fmtMs, fmtNum, fmtRatio } from './format.mjs';

const BM = 'BrowserMesh';
const PW = '@playwright/mcp';
const PER_STEP = 'per-step, refs from snapshots';
const CODE = 'code mode: one Playwright script';

const rowsOf = (results, scenario) => results[scenario]?.rows ?? [];
const find = (rows, where) => rows.find((r) => Object.entries(where).every(([k, v]) => r[k] === v));
const usable = (row, field) => row && !row.na && !row.error && Number.isFinite(row[field]);
const missing = (note) => ({ met: null, measured: '—', note });

function goal(id, text, target, check) {
  try {
    return { id, goal: text, target, ...check() };
  } catch (error) {
    return { id, goal: text, target, ...missing(String(error.message ?? error)) };
  }
}

/** `bm ÷ other` against a limit, or not measured when either side is missing. */
function ratioGoal(bm, other, field, limit, what, format = fmtMs) {
  if (!usable(bm, field)) return missing(`${what}: BrowserMesh not measured`);
  if (!usable(other, field)) return missing(`${what}: ${other?.contender ?? 'the other side'} not measured`);
  const r = ratio(bm[field], other[field]);
  return { met: r <= limit, measured: `${fmtRatio(r)} (${format(bm[field])} vs ${format(other[field])})` };
}

/**
 * Why the snapshot capture goals are still missed where they are: said next to the figure, since a
 * missed goal's row shows only what was measured.
 */
const SNAPSHOT_WHY =
  'the in-page capture computes roles and names inside the page as the peer does and sends back only the kept nodes; the two are within ~10% and trade places between runs on a loaded machine (0.87× to 1.08× in session 11), the rest being the ref bookkeeping and text rendering in Node (docs/performance.md)';

const COLD_START_WHY =
  "the CLI is one bundle and Chromium's launch begins before the server's modules load, but what is left on the main thread (playwright-core ~175 ms, the server's chunks, the SDK's and the tools' zod schemas) still runs while Chromium launches, makes the spare context and navigates on the same two cores; the contenders are within this machine's run-to-run spread, ±10% between runs of 5 starts (docs/performance.md)";

const CODE_VS_STEPS_WHY =
  "both flows do the same page work (the common locators are answered in the page, docs/performance.md) and differ by ~5% either way: the script's first locator in each of the 7 new documents builds the in-page resolver where the per-step flow's snapshot already built the capture, the script's reads are logged with their best locator (an export asserts them), and each page call crosses the sandbox; on a loaded machine that difference is within the noise of one run";

const FIRST_RUN_WHY =
  "both runs take a few milliseconds, so a few milliseconds of first use show as a large ratio: the cost is the process's first script, not the session's (a second session's first run is as fast as a warm one): the first parse of browser_run's input compiles its zod parser (~2 ms), and in the sandbox worker, started when Chromium's launch ended, the first real script still runs slower than the next (13-31 vs 7-9 ms inside the server) (docs/performance.md)";

/** A missed goal's reason, printed after its figure (markdown.mjs `measuredText`). */
function withWhy(result, why) {
  return result.met === false ? { ...result, note: why } : result;
}

export function firstUseGoals(results) {
  const cold = rowsOf(results, 'coldStart');
  const bmCold = find(cold, { contender: BM });
  const peersCold = cold.filter(
    (r) => r.contender !== BM && r.contender !== REFERENCE_LABEL && r.contender !== ONE_CALL_LABEL,
  );
  const fastest = peersCold
    .filter((r) => usable(r, 'ms'))
    .reduce((best, r) => (best === undefined || r.ms < best.ms ? r : best), undefined);
  const checkout = rowsOf(results, 'checkout');
  const snaps = rowsOf(results, 'snapshot');
  const bmSnap = find(snaps, { contender: BM, page: 'large', mode: 'full' });
  const list = rowsOf(results, 'discovery');
  const perTool = (row) => (row && usable(row, 'tokens') ? { ...row, perTool: row.tokens / row.tools } : row);
  const scale = rowsOf(results, 'scale');
  const maxN = Math.max(0, ...scale.map((r) => r.n ?? 0));
  return [
    goal('spawn-initialize', 'Spawn → initialize answered vs @playwright/mcp', '≤ 0.5×', () =>
      ratioGoal(bmCold, find(cold, { contender: PW }), 'initMs', 0.5, 'spawn → initialize'),
    ),
    goal('cold-first-navigation', 'Cold start → first navigation vs the fastest peer', '≤ 1×', () =>
      withWhy(ratioGoal(bmCold, fastest, 'ms', 1, 'cold start'), COLD_START_WHY),
    ),
    goal(
      'cold-first-navigation-one-call',
      'Cold start → first navigation vs the fastest peer, one call (browser_navigate opens the session)',
      '≤ 1×',
      () => ratioGoal(find(cold, { contender: ONE_CALL_LABEL }), fastest, 'ms', 1, 'cold start (one call)'),
    ),
    goal('first-run', 'First browser_run in a process vs the next one', '≤ 1.2×', () =>
      usable(bmCold, 'firstRunMs') && usable(bmCold, 'warmRunMs')
        ? withWhy(
            {
              met: bmCold.firstRunMs <= 1.2 * bmCold.warmRunMs,
              measured: `${fmtRatio(ratio(bmCold.firstRunMs, bmCold.warmRunMs))} (${fmtMs(bmCold.firstRunMs)} vs ${fmtMs(bmCold.warmRunMs)})`,
            },
            FIRST_RUN_WHY,
          )
        : missing('first browser_run not measured'),
    ),
    goal('code-vs-steps', 'Checkout as one script vs the same steps as calls (wall time)', '≤ 1×', () =>
      withWhy(
        ratioGoal(
          find(checkout, { contender: BM, mode: CODE }),
          find(checkout, { contender: BM, mode: PER_STEP }),
          'wallMs',
          1,
          'checkout',
        ),
        CODE_VS_STEPS_WHY,
      ),
    ),
    goal('code-vs-peer', "Checkout as one script vs @playwright/mcp's code tool (wall time)", '≤ 0.7×', () =>
      ratioGoal(
        find(checkout, { contender: BM, mode: CODE }),
        find(checkout, { contender: PW, mode: CODE }),
        'wallMs',
        0.7,
        'code mode',
      ),
    ),
    goal('snapshot-capture-peer', "Full snapshot capture of /large vs @playwright/mcp's", '≤ 1×', () =>
      withWhy(
        ratioGoal(bmSnap, find(snaps, { contender: PW, page: 'large', mode: 'full' }), 'ms', 1, 'snapshot'),
        SNAPSHOT_WHY,
      ),
    ),
    goal(
      'snapshot-first-capture',
      "Default snapshot of /large right after navigating to it vs @playwright/mcp's",
      '≤ 1×',
      () =>
        ratioGoal(
          find(snaps, { contender: BM, page: 'large', mode: FIRST_AFTER_NAVIGATION }),
          find(snaps, { contender: PW, page: 'large', mode: FIRST_AFTER_NAVIGATION }),
          'ms',
          1,
          'snapshot',
        ),
    ),
    goal(
      'snapshot-capture-aria',
      "Full snapshot capture of /large vs playwright-core's ariaSnapshot()",
      '≤ 1.2×',
      () =>
        withWhy(
          ratioGoal(
            bmSnap,
            find(snaps, { contender: REFERENCE_LABEL, page: 'large', mode: 'full' }),
            'ms',
            1.2,
            'snapshot',
          ),
          SNAPSHOT_WHY,
        ),
    ),
    goal(
      'tool-list-tokens',
      "tools/list tokens per tool (default profile) vs @playwright/mcp's",
      '≤ 1×',
      () =>
        ratioGoal(
          perTool(find(list, { contender: BM, profile: 'default' })),
          perTool(find(list, { contender: PW, profile: 'default' })),
          'perTool',
          1,
          'tools/list',
          (v) => `${fmtNum(v, 0)} tokens/tool`,
        ),
    ),
    goal('cpu-per-checkout', `CPU seconds per checkout (server + browser, N = ${maxN})`, '≤ 2.5 s', () => {
      const bm = find(scale, { contender: BM, n: maxN });
      return usable(bm, 'cpuSecPerCheckout')
        ? { met: bm.cpuSecPerCheckout <= 2.5, measured: `${fmtNum(bm.cpuSecPerCheckout, 2)} s` }
        : missing('scale not measured');
    }),
  ];
}
