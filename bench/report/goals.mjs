// The benchmark's goals, checked against one run's results. A goal is met, missed, or not measurable
// (null) when a number it needs is missing — never guessed.

import { ratio } from '../lib/stats.mjs';
import { REFERENCE_LABEL } from '../peers/reference.mjs';
import { FLOOR_LABEL } from '../scenarios/scale.mjs';
import { fmtInt, fmtMs, fmtRatio } from './format.mjs';
import { firstUseGoals } from './goals-first-use.mjs';
import { cliGoals } from './goals-cli.mjs';
import { interactiveSnapshotNote } from './goal-notes.mjs';

const BM = 'BrowserMesh';
const PW = '@playwright/mcp';
const PER_STEP = 'per-step, refs from snapshots';
const CODE = 'code mode: one Playwright script';

const rowsOf = (results, scenario) => results[scenario]?.rows ?? [];
const find = (rows, where) => rows.find((r) => Object.entries(where).every(([k, v]) => r[k] === v));
const usable = (row, field) => row && !row.na && !row.error && Number.isFinite(row[field]);
const why = (row, what) => row?.na ?? row?.error ?? `${what} not measured`;

export function goal(id, text, target, check) {
  try {
    return { id, goal: text, target, ...check() };
  } catch (error) {
    return { id, goal: text, target, met: null, measured: '—', note: String(error.message ?? error) };
  }
}

export function notMeasured(note) {
  return { met: null, measured: '—', note };
}

export function evaluateGoals(results) {
  const goals = [];
  const nav = find(rowsOf(results, 'navigate'), { contender: BM });
  goals.push(
    goal('navigate-chars', 'Navigation result size', '≤ 120 characters', () =>
      usable(nav, 'chars')
        ? { met: nav.chars <= 120, measured: `${fmtInt(nav.chars)} chars` }
        : notMeasured(why(nav, 'navigation')),
    ),
  );

  for (const page of ['large', 'forms']) {
    const snaps = rowsOf(results, 'snapshot');
    const pw = find(snaps, { contender: PW, page, mode: 'full' });
    for (const [mode, limit] of [
      ['full', 0.4],
      ['interactive', 0.07],
    ]) {
      const bm = find(snaps, { contender: BM, page, mode });
      goals.push(
        goal(
          `snapshot-${mode}-${page}`,
          `${mode === 'full' ? 'Full' : 'Interactive-only'} snapshot of /${page} vs @playwright/mcp's snapshot`,
          `≤ ${limit}× tokens`,
          () => {
            if (!usable(bm, 'tokens')) return notMeasured(why(bm, 'snapshot'));
            if (!usable(pw, 'tokens')) return notMeasured(why(pw, '@playwright/mcp snapshot'));
            const r = ratio(bm.tokens, pw.tokens);
            const cut = bm.partial ? ' (BrowserMesh output was cut by its budget)' : '';
            const full = find(snaps, { contender: BM, page, mode: 'full' });
            const note =
              r > limit && mode === 'interactive'
                ? interactiveSnapshotNote(bm, full, pw.tokens, limit)
                : undefined;
            return {
              met: r <= limit,
              // Three decimals near the 0.07× target, where two would show a miss as "0.07×".
              measured: `${r < 0.1 ? `${r.toFixed(3)}×` : fmtRatio(r)} (${fmtInt(bm.tokens)} vs ${fmtInt(pw.tokens)} tokens)${cut}`,
              ...(note ? { note } : {}),
            };
          },
        ),
      );
    }
  }

  const checkouts = rowsOf(results, 'checkout');
  const bmStep = find(checkouts, { contender: BM, mode: PER_STEP });
  const pwStep = find(checkouts, { contender: PW, mode: PER_STEP });
  goals.push(
    goal('checkout-tokens', 'Checkout, one call per step, vs @playwright/mcp', '≤ 0.3× tokens', () => {
      if (!usable(bmStep, 'totalTokens')) return notMeasured(why(bmStep, 'checkout'));
      if (!usable(pwStep, 'totalTokens')) return notMeasured(why(pwStep, '@playwright/mcp checkout'));
      const r = ratio(bmStep.totalTokens, pwStep.totalTokens);
      return {
        met: r <= 0.3,
        measured:
          `${fmtRatio(r)} (${fmtInt(bmStep.totalTokens)} vs ${fmtInt(pwStep.totalTokens)} tokens, results + arguments; ` +
          `results alone ${fmtRatio(ratio(bmStep.resultTokens, pwStep.resultTokens))})`,
      };
    }),
  );
  const bmCode = find(checkouts, { contender: BM, mode: CODE });
  const pwCode = find(checkouts, { contender: PW, mode: CODE });
  goals.push(
    goal(
      'checkout-code',
      'Checkout in code mode vs @playwright/mcp browser_run_code_unsafe (same script)',
      '1 call, fewer result tokens, less wall time',
      () => {
        if (!usable(bmCode, 'resultTokens')) return notMeasured(why(bmCode, 'code mode'));
        if (!usable(pwCode, 'resultTokens')) return notMeasured(why(pwCode, '@playwright/mcp code mode'));
        const met =
          bmCode.calls === 1 && bmCode.resultTokens < pwCode.resultTokens && bmCode.wallMs < pwCode.wallMs;
        return {
          met,
          measured: `${bmCode.calls} call; ${fmtInt(bmCode.resultTokens)} vs ${fmtInt(pwCode.resultTokens)} result tokens; ${fmtMs(bmCode.wallMs)} vs ${fmtMs(pwCode.wallMs)}`,
        };
      },
    ),
  );

  const clicks = rowsOf(results, 'click');
  const reference = find(clicks, { contender: REFERENCE_LABEL });
  for (const variant of ['ref', 'locator']) {
    const bm = find(clicks, { contender: BM, variant });
    goals.push(
      goal(
        `click-${variant}`,
        `Click median (by ${variant}) vs playwright-core's own click on the same page`,
        '≤ 0.5×',
        () => {
          if (!usable(bm, 'medianMs')) return notMeasured(why(bm, 'click'));
          if (!usable(reference, 'medianMs')) return notMeasured(why(reference, 'reference click'));
          const r = ratio(bm.medianMs, reference.medianMs);
          return {
            met: r <= 0.5,
            measured: `${fmtRatio(r)} (${fmtMs(bm.medianMs)} vs ${fmtMs(reference.medianMs)})`,
          };
        },
      ),
    );
  }

  const waitRows = rowsOf(results, 'waits');
  const late = find(waitRows, { contender: BM, kind: 'late content (1.5 s)' });
  goals.push(
    goal('late-content', 'Late content seen after it appears', '≤ 100 ms', () =>
      usable(late, 'latenessMs')
        ? { met: late.latenessMs <= 100, measured: fmtMs(late.latenessMs) }
        : notMeasured(why(late, 'wait')),
    ),
  );
  const sleep = find(waitRows, { contender: BM, kind: 'quiet 8 s sleep (code mode)' });
  goals.push(
    goal('quiet-sleep', '8 s sleep on a quiet page (code mode)', '< 1 s', () =>
      usable(sleep, 'ms')
        ? { met: sleep.ms < 1000, measured: fmtMs(sleep.ms) }
        : notMeasured(why(sleep, 'sleep')),
    ),
  );

  const list = find(rowsOf(results, 'discovery'), { contender: BM, profile: 'default' });
  goals.push(
    goal('tool-list', 'Default tool list size per tool', '≤ ~800 bytes per tool', () =>
      usable(list, 'bytesPerTool')
        ? {
            met: list.bytesPerTool <= 800,
            measured: `${fmtInt(list.bytesPerTool)} bytes/tool (${list.tools} tools, ${fmtInt(list.bytes)} bytes)`,
          }
        : notMeasured(why(list, 'tools/list')),
    ),
  );

  goals.push(...scaleGoals(rowsOf(results, 'scale')));
  goals.push(...firstUseGoals(results));
  goals.push(...cliGoals(results, goal, notMeasured));
  return goals;
}

function scaleGoals(rows) {
  const at = Math.max(0, ...rows.map((r) => r.n ?? 0));
  const bm = find(rows, { contender: BM, n: at });
  const floor = find(rows, { contender: FLOOR_LABEL, n: at });
  const peers = rows.filter((r) => r.n === at && r.contender !== BM && r.contender !== FLOOR_LABEL);
  const suffix = at ? ` (N = ${at})` : '';
  const flowNote = bm?.flow ? `; BrowserMesh ran ${bm.flow}` : '';
  return [
    goal(
      'scale-memory-floor',
      `Memory per added session vs a bare context + page${suffix}`,
      '≤ 1.3× the floor',
      () => {
        if (!usable(bm, 'perAddedSessionMiB')) return notMeasured(why(bm, 'scale'));
        if (!usable(floor, 'perAddedSessionMiB')) return notMeasured(why(floor, 'floor'));
        const r = ratio(bm.perAddedSessionMiB, floor.perAddedSessionMiB);
        return {
          met: r <= 1.3,
          measured: `${fmtRatio(r)} (${fmtInt(bm.perAddedSessionMiB)} vs ${fmtInt(floor.perAddedSessionMiB)} MiB)${flowNote}`,
        };
      },
    ),
    goal('scale-memory-peers', `Memory per added session below every peer${suffix}`, '< each peer', () => {
      if (!usable(bm, 'perAddedSessionMiB')) return notMeasured(why(bm, 'scale'));
      const measured = peers.filter((p) => usable(p, 'perAddedSessionMiB'));
      if (measured.length === 0) return notMeasured('no peer measured');
      const met = measured.every((p) => bm.perAddedSessionMiB < p.perAddedSessionMiB);
      const list = measured.map((p) => `${p.contender} ${fmtInt(p.perAddedSessionMiB)}`).join(', ');
      return { met, measured: `${fmtInt(bm.perAddedSessionMiB)} MiB vs ${list} MiB${flowNote}` };
    }),
    goal('scale-throughput', `Checkouts per minute above every peer${suffix}`, '> each peer', () => {
      if (!usable(bm, 'checkoutsPerMin')) return notMeasured(why(bm, 'scale'));
      const measured = peers.filter((p) => usable(p, 'checkoutsPerMin'));
      if (measured.length === 0) return notMeasured('no peer measured');
      const met = measured.every((p) => bm.checkoutsPerMin > p.checkoutsPerMin);
      const list = measured.map((p) => `${p.contender} ${p.checkoutsPerMin.toFixed(1)}`).join(', ');
      return { met, measured: `${bm.checkoutsPerMin.toFixed(1)} vs ${list}${flowNote}` };
    }),
  ];
}
