// One Markdown table per scenario, each with BrowserMesh's value divided by the row's ("BM ÷ row").

import { fmtInt, fmtMs, fmtNum } from './format.mjs';
import { cells, ratioCell, table, usable } from './table.mjs';
import { CLI_ABOUT, cliSection } from './section-cli.mjs';

const BM = 'BrowserMesh';

function discoverySection(rows) {
  const bm = rows.find((r) => r.contender === BM && r.profile === 'default');
  return table(
    [
      'Server',
      'Profile',
      'Tools',
      'Bytes',
      'Tokens',
      'Bytes/tool',
      'Instructions (chars)',
      'BM ÷ row (tokens)',
    ],
    rows.map((r) => [
      r.contender,
      r.profile,
      ...cells(
        r,
        (x) => [
          x.tools,
          fmtInt(x.bytes),
          fmtInt(x.tokens),
          fmtInt(x.bytesPerTool),
          fmtInt(x.instructionsChars),
          r.contender === BM ? '' : ratioCell(bm?.tokens, x.tokens),
        ],
        6,
      ),
    ]),
  );
}

function navigateSection(rows) {
  const bm = rows.find((r) => r.contender === BM);
  return table(
    ['Server', 'Chars', 'Tokens', 'Call time', 'BM ÷ row (chars)'],
    rows.map((r) => [
      r.contender,
      ...cells(
        r,
        (x) => [
          fmtInt(x.chars),
          fmtInt(x.tokens),
          fmtMs(x.ms),
          r.contender === BM ? '' : ratioCell(bm?.chars, x.chars),
        ],
        4,
      ),
    ]),
  );
}

function snapshotSection(rows) {
  const out = [];
  for (const page of [...new Set(rows.map((r) => r.page))]) {
    const of = rows.filter((r) => r.page === page);
    const full = of.find((r) => r.contender === BM && r.mode === 'full');
    const inter = of.find((r) => r.contender === BM && r.mode === 'interactive');
    out.push(
      `**/${page}**`,
      '',
      table(
        ['Server', 'Mode', 'Chars', 'Tokens', 'Capture time', 'BM full ÷ row', 'BM interactive ÷ row'],
        of.map((r) => [
          r.contender,
          r.mode,
          ...cells(
            r,
            (x) => [
              fmtInt(x.chars),
              `${fmtInt(x.tokens)}${x.partial ? ' (cut by budget)' : ''}`,
              fmtMs(x.ms),
              r.contender === BM ? '' : ratioCell(usable(full, 'tokens') ? full.tokens : undefined, x.tokens),
              r.contender === BM
                ? ''
                : ratioCell(usable(inter, 'tokens') ? inter.tokens : undefined, x.tokens),
            ],
            5,
          ),
        ]),
      ),
      '',
    );
  }
  return out.join('\n').trim();
}

function checkoutSection(rows) {
  const bmStep = rows.find(
    (r) => r.contender === BM && r.mode.startsWith('per-step, refs') && usable(r, 'totalTokens'),
  );
  const bmCode = rows.find(
    (r) => r.contender === BM && r.mode === 'code mode: one Playwright script' && usable(r, 'totalTokens'),
  );
  // Code-mode rows and the in-process run of the same script compare with BrowserMesh's code mode.
  const compareTo = (r) =>
    r.mode.startsWith('code mode') || r.mode.startsWith('same Playwright script') ? bmCode : bmStep;
  return table(
    [
      'Server',
      'Flow',
      'Calls',
      'Result tokens',
      'Argument tokens',
      'Total tokens',
      'Wall time',
      'BM ÷ row (tokens)',
      'BM ÷ row (time)',
    ],
    rows.map((r) => [
      r.contender,
      r.mode,
      ...cells(
        r,
        (x) => {
          const bm = r.contender === BM ? undefined : compareTo(r);
          return [
            x.calls,
            fmtInt(x.resultTokens),
            fmtInt(x.argTokens),
            fmtInt(x.totalTokens),
            fmtMs(x.wallMs),
            bm && Number.isFinite(x.totalTokens) ? ratioCell(bm.totalTokens, x.totalTokens) : '',
            bm ? ratioCell(bm.wallMs, x.wallMs) : '',
          ];
        },
        7,
      ),
    ]),
  );
}

function clickSection(rows) {
  const bm =
    rows.find((r) => r.contender === BM && r.variant === 'ref' && usable(r, 'medianMs')) ??
    rows.find((r) => r.contender === BM && usable(r, 'medianMs'));
  return table(
    [
      'Server',
      'Click by',
      'Median',
      'p90',
      'Result tokens',
      'Counter verified',
      `BM (${bm?.variant ?? '—'}) ÷ row`,
    ],
    rows.map((r) => [
      r.contender,
      r.variant,
      ...cells(
        r,
        (x) => [
          fmtMs(x.medianMs),
          fmtMs(x.p90Ms),
          fmtInt(x.resultTokens),
          x.verified ? 'yes' : 'NO',
          r.contender === BM ? '' : ratioCell(bm?.medianMs, x.medianMs),
        ],
        5,
      ),
    ]),
  );
}

function waitsSection(rows) {
  return table(
    ['Server', 'Wait', 'Seen after appearance', 'Call time', 'BM ÷ row (time)'],
    rows.map((r) => {
      const bm = rows.find((b) => b.contender === BM && b.kind === r.kind && usable(b, 'ms'));
      return [
        r.contender,
        r.note ? `${r.kind}: ${r.note}` : r.kind,
        ...cells(
          r,
          (x) => [fmtMs(x.latenessMs), fmtMs(x.ms), r.contender === BM ? '' : ratioCell(bm?.ms, x.ms)],
          3,
        ),
      ];
    }),
  );
}

function scaleSection(rows) {
  const failed = rows.filter((r) => r.failures > 0);
  const notes = failed.map(
    (r) =>
      `- N = ${r.n}, ${r.contender}: ${r.failures} of ${r.n} checkouts failed (counted out of checkouts/min and CPU per checkout); first error: ${r.firstFailure ?? 'unknown'}`,
  );
  return [scaleTable(rows), ...(notes.length ? ['', ...notes] : [])].join('\n');
}

function scaleTable(rows) {
  return table(
    [
      'N',
      'Server',
      'Wall time',
      'Checkouts/min',
      'CPU s/checkout',
      'PSS total (MiB)',
      'MiB per added session',
      'Failures',
      'BM ÷ row (MiB/session)',
      'BM ÷ row (checkouts/min)',
    ],
    rows.map((r) => {
      const bm = rows.find((b) => b.contender === BM && b.n === r.n && !b.na && !b.error);
      return [
        r.n,
        r.flow ? `${r.contender} (${r.flow})` : r.contender,
        ...cells(
          r,
          (x) => [
            fmtMs(x.wallMs),
            fmtNum(x.checkoutsPerMin),
            fmtNum(x.cpuSecPerCheckout, 2),
            fmtInt(x.pssMiB),
            fmtInt(x.perAddedSessionMiB),
            x.failures,
            r.contender === BM ? '' : ratioCell(bm?.perAddedSessionMiB, x.perAddedSessionMiB),
            r.contender === BM ? '' : ratioCell(bm?.checkoutsPerMin, x.checkoutsPerMin),
          ],
          8,
        ),
      ];
    }),
  );
}

function coldStartSection(rows) {
  const bm = rows.find((r) => r.contender === BM && usable(r, 'ms'));
  const opt = (value) => (Number.isFinite(value) ? fmtMs(value) : '—');
  return table(
    [
      'Server',
      'Spawn → initialize',
      'Spawn → first navigation',
      'First browser_run',
      'Second browser_run',
      'Samples',
      'BM ÷ row (initialize)',
      'BM ÷ row (first navigation)',
    ],
    rows.map((r) => [
      r.contender,
      ...cells(
        r,
        (x) => [
          opt(x.initMs),
          fmtMs(x.ms),
          opt(x.firstRunMs),
          opt(x.warmRunMs),
          x.samples,
          r.contender === BM || !Number.isFinite(x.initMs) ? '' : ratioCell(bm?.initMs, x.initMs),
          r.contender === BM ? '' : ratioCell(bm?.ms, x.ms),
        ],
        7,
      ),
    ]),
  );
}

function findSection(rows) {
  const bm = rows.find((r) => r.contender === BM && r.mode === 'find');
  return table(
    ['Server', 'Way', 'Snapshot/find tokens', 'Tokens (whole task)', 'Call time', 'BM find ÷ row (tokens)'],
    rows.map((r) => [
      r.contender,
      r.mode,
      ...cells(
        r,
        (x) => [
          fmtInt(x.lookTokens),
          fmtInt(x.tokens),
          fmtMs(x.ms),
          r.contender === BM && r.mode === 'find' ? '' : ratioCell(bm?.tokens, x.tokens),
        ],
        4,
      ),
    ]),
  );
}

export const SECTIONS = [
  [
    'discovery',
    'Discovery: tools/list',
    discoverySection,
    "What a client puts in the model's context before the first call. BrowserMesh per tool profile (`--tools`); peers with their defaults.",
  ],
  [
    'navigate',
    'Navigate',
    navigateSection,
    'One navigation to `/large` (~3,000 elements): what the model reads back.',
  ],
  [
    'snapshot',
    'Snapshot',
    snapshotSection,
    'Capture time is the tool call\'s wall time. "full" is the whole page: BrowserMesh is asked for the largest `maxChars`/`maxBytes` its schema allows, so nothing the peers return is cut; "full, default budget" is what BrowserMesh returns without options (cut at its default budget, with a cursor for the rest). The peers have no interactive-only mode, so the goals compare BrowserMesh\'s interactive snapshot with their full one. The playwright-core row is `locator("body").ariaSnapshot()` in process. "first after navigation" is the default snapshot taken right after each of the iterations\' fresh loads of the page, the capture agents meet most.',
  ],
  [
    'find',
    'Find and click',
    findSection,
    '"Find the Add to cart button on `/big` (the `/large` page plus one product card) and click it": once from the whole snapshot (BrowserMesh asked for its largest budget), once with a find tool (BrowserMesh `browser_find` role+name; @playwright/mcp `browser_find` text, a core tool of 0.0.83). Tokens count every result and argument the model reads and writes, the click included; a find after the click checks that it landed.',
  ],
  [
    'checkout',
    'Checkout',
    checkoutSection,
    "Search, open the product, add to cart, open the cart, go to checkout, fill five fields, pick the country, shipping and terms, place the order, read the confirmation. Per-step flows re-read each new page (BrowserMesh: interactive snapshot; @playwright/mcp: `browser_snapshot`; chrome-devtools-mcp: `includeSnapshot` on the action that loads it). Code mode runs one Playwright script, the same text for every code tool. Session setup is not counted; a contender's flows take turns within each iteration. Per-step rows are compared with BrowserMesh's per-step (refs) flow, code-mode rows with its code mode.",
  ],
  [
    'click',
    'Click latency',
    clickSection,
    "Thirty clicks on one button after a warm-up click; the page's counter is read afterwards to prove every click landed. Reference rows: playwright-core `page.click('#increment')` (full actionability checks) and three raw CDP mouse events at a precomputed point (no checks at all).",
  ],
  [
    'waits',
    'Waits',
    waitsSection,
    'Late content appears 1.5 s after load; "seen after appearance" is the time from the page\'s own timestamp of the DOM change to the wait call returning to the client. The quiet sleep is an 8 s `page.waitForTimeout` in code mode on a page that is already quiet (median of at most 3 runs).',
  ],
  [
    'scale',
    'Scale',
    scaleSection,
    'N sessions each doing the per-step checkout at the same time. BrowserMesh: one process, N sessions. Peers: one process (and browser) per isolated session. Floor: one playwright-core browser with one new context + page per session running the checkout script. CPU and PSS are summed over the server and browser process trees from /proc (PSS, not RSS: shared pages are counted once). Setup is not timed; memory is read with all N sessions still open.',
  ],
  [
    'coldStart',
    'Cold start',
    coldStartSection,
    'Spawn → MCP handshake → tools/list → whatever is needed to get a page → first completed navigation (which launches the browser). "Spawn → initialize" is the handshake alone. BrowserMesh then runs `return 1` in `browser_run` twice: the first pays for whatever the sandbox has not started yet. BrowserMesh gets a page with browser_session_create and then browser_navigate (two calls, as its tool descriptions lead an agent); its one-call row is the same start with browser_navigate alone, which opens the session. The goal is judged on the two-call row.',
  ],
  ['cli', 'Shell CLIs', cliSection, CLI_ABOUT],
];
