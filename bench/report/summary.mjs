// The headline table: one line per metric, BrowserMesh next to each peer, with the ratio
// BrowserMesh / peer. Everything here is read from the scenario rows; nothing is recomputed.

import { ratio } from '../lib/stats.mjs';
import { fmtInt, fmtMs, fmtNum, fmtRatio } from './format.mjs';

const BM = 'BrowserMesh';
const PER_STEP = 'per-step, refs from snapshots';
const CODE = 'code mode: one Playwright script';

const ok = (row, field) =>
  row && !row.na && !row.error && Number.isFinite(row[field]) ? row[field] : undefined;
const rows = (results, name) => results[name]?.rows ?? [];
const maxN = (results) => Math.max(0, ...rows(results, 'scale').map((r) => r.n ?? 0));

/** [label, format, (results, contender) => value]; the BrowserMesh side may use another row than the peer's. */
const METRICS = [
  [
    'tools/list tokens (default profile)',
    fmtInt,
    (r, c) =>
      ok(
        rows(r, 'discovery').find((x) => x.contender === c && x.profile === 'default'),
        'tokens',
      ),
  ],
  [
    'navigate result, chars',
    fmtInt,
    (r, c) =>
      ok(
        rows(r, 'navigate').find((x) => x.contender === c),
        'chars',
      ),
  ],
  ...['large', 'forms'].flatMap((page) => [
    [
      `snapshot /${page}, full, tokens`,
      fmtInt,
      (r, c) =>
        ok(
          rows(r, 'snapshot').find((x) => x.contender === c && x.page === page && x.mode === 'full'),
          'tokens',
        ),
    ],
    [
      `snapshot /${page}, BrowserMesh interactive-only vs peer full, tokens`,
      fmtInt,
      (r, c) =>
        ok(
          rows(r, 'snapshot').find(
            (x) => x.contender === c && x.page === page && x.mode === (c === BM ? 'interactive' : 'full'),
          ),
          'tokens',
        ),
    ],
  ]),
  [
    'checkout per step: calls',
    fmtInt,
    (r, c) =>
      ok(
        rows(r, 'checkout').find((x) => x.contender === c && x.mode === PER_STEP),
        'calls',
      ),
  ],
  [
    'checkout per step: total tokens',
    fmtInt,
    (r, c) =>
      ok(
        rows(r, 'checkout').find((x) => x.contender === c && x.mode === PER_STEP),
        'totalTokens',
      ),
  ],
  [
    'checkout per step: wall time',
    fmtMs,
    (r, c) =>
      ok(
        rows(r, 'checkout').find((x) => x.contender === c && x.mode === PER_STEP),
        'wallMs',
      ),
  ],
  [
    'checkout code mode: result tokens',
    fmtInt,
    (r, c) =>
      ok(
        rows(r, 'checkout').find((x) => x.contender === c && x.mode === CODE),
        'resultTokens',
      ),
  ],
  [
    'checkout code mode: wall time',
    fmtMs,
    (r, c) =>
      ok(
        rows(r, 'checkout').find((x) => x.contender === c && x.mode === CODE),
        'wallMs',
      ),
  ],
  [
    'click median (by ref)',
    fmtMs,
    (r, c) =>
      ok(
        rows(r, 'click').find((x) => x.contender === c && x.variant === 'ref'),
        'medianMs',
      ),
  ],
  [
    'late content seen after appearance',
    fmtMs,
    (r, c) =>
      ok(
        rows(r, 'waits').find((x) => x.contender === c && x.kind.startsWith('late')),
        'latenessMs',
      ),
  ],
  [
    'quiet 8 s sleep (code mode)',
    fmtMs,
    (r, c) =>
      ok(
        rows(r, 'waits').find((x) => x.contender === c && x.kind.startsWith('quiet')),
        'ms',
      ),
  ],
  [
    'scale at max N: checkouts/min',
    (v) => fmtNum(v),
    (r, c) =>
      ok(
        rows(r, 'scale').find((x) => x.contender === c && x.n === maxN(r)),
        'checkoutsPerMin',
      ),
  ],
  [
    'scale at max N: MiB per added session',
    fmtInt,
    (r, c) =>
      ok(
        rows(r, 'scale').find((x) => x.contender === c && x.n === maxN(r)),
        'perAddedSessionMiB',
      ),
  ],
  [
    'scale at max N: CPU s per checkout',
    (v) => fmtNum(v, 2),
    (r, c) =>
      ok(
        rows(r, 'scale').find((x) => x.contender === c && x.n === maxN(r)),
        'cpuSecPerCheckout',
      ),
  ],
  [
    'spawn → initialize answered',
    fmtMs,
    (r, c) =>
      ok(
        rows(r, 'coldStart').find((x) => x.contender === c),
        'initMs',
      ),
  ],
  [
    'cold start to first navigation',
    fmtMs,
    (r, c) =>
      ok(
        rows(r, 'coldStart').find((x) => x.contender === c),
        'ms',
      ),
  ],
];

export function summarySection(report) {
  const peers = report.meta.contenders.filter((c) => c.label !== BM).map((c) => c.label);
  const headers = ['Metric', BM, ...peers.flatMap((p) => [p, `BM ÷ ${p}`])];
  const lines = [];
  for (const [label, format, get] of METRICS) {
    const bm = get(report.scenarios, BM);
    const values = peers.map((p) => get(report.scenarios, p));
    if (bm === undefined && values.every((v) => v === undefined)) continue;
    lines.push([label, format(bm), ...values.flatMap((v) => [format(v), fmtRatio(ratio(bm, v))])]);
  }
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const n = maxN(report.scenarios);
  return [
    '## Summary',
    '',
    `BrowserMesh next to each peer, and the ratio BrowserMesh ÷ peer (below 1: BrowserMesh is smaller or faster; for checkouts/min above 1 is better).${n ? ` "Max N" is ${n}.` : ''} A dash means not measured; the sections below say why.`,
    '',
    line(headers),
    line(headers.map(() => '---')),
    ...lines.map(line),
  ].join('\n');
}
