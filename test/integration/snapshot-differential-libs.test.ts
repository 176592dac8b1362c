import { describe, expect, test, type SnapshotSetup } from './support/fixtures.js';
import type { SnapshotCaptureMode } from '../../src/snapshot/capture-mode.js';
import { lastCaptureKind } from '../../src/snapshot/capture-mode.js';
import { ensureListenersHook } from '../../src/snapshot/page-world.js';
import { snapshot, type SnapshotInput } from '../../src/operations/read/snapshot.js';
import { REAL_LIBS } from '../fixtures/pages/real-libs-table.mjs';
import { renumberRefs } from './snapshot-support.js';

/**
 * The differential corpus: pages built on real third-party widget libraries (date pickers,
 * comboboxes, a sortable list, a data grid, a calendar, editors, web components, dialogs, tabs; see
 * test/fixtures/pages/real-libs-table.mjs), each in a few states. The in-page capture and Chromium's
 * CDP tree must give the same lines, refs on the same lines, in the main document and scoped inside
 * same-origin, cross-origin and nested frames. A difference fails with the two lines side by side.
 */

let env: SnapshotSetup;
test.beforeAll(({ snapshotEnv }) => {
  env = snapshotEnv;
});

const WHOLE = { maxChars: 1_000_000, maxBytes: 4_194_304 };

async function snap(mode: SnapshotCaptureMode, input: SnapshotInput = WHOLE): Promise<string> {
  return env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'snapshot', async (ctx) => {
    const result = await snapshot({ ...ctx, config: { ...ctx.config, snapshotCapture: mode } }, input);
    if (mode === 'page') expect(lastCaptureKind(ctx.page)).toBe('page');
    return result.snapshot;
  });
}

/** Loads a page as the tools do and waits until every frame of it that runs a library is ready. */
async function open(path: string): Promise<void> {
  await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'goto', async (ctx) => {
    await ensureListenersHook(ctx.page);
    await ctx.page.page.goto(env.site.url(path), { waitUntil: 'load' });
    for (const frame of ctx.page.page.frames()) {
      if (!/\/reallibs\/(?!frames|nest)/.test(frame.url())) continue;
      const ready = await frame.waitForFunction(() => document.documentElement.dataset['ready'], null, {
        // Polled on a timer: Chromium throttles animation frames in an off-screen cross-origin iframe.
        polling: 100,
        timeout: 20_000,
      });
      expect(await ready.jsonValue()).not.toMatch(/^error/);
    }
  });
}

/** The first differing line of the two captures, side by side, with a little context. */
function sideBySide(cdp: string, page: string): string {
  const a = renumberRefs(cdp).split('\n');
  const b = renumberRefs(page).split('\n');
  const at = a.findIndex((line, i) => line !== b[i]);
  const first = at < 0 ? Math.min(a.length, b.length) : at;
  const rows = [];
  for (let i = Math.max(0, first - 2); i < Math.min(Math.max(a.length, b.length), first + 4); i++) {
    rows.push(
      `${i === first ? '>' : ' '} ${i + 1}\n    cdp:  ${a[i] ?? '(none)'}\n    page: ${b[i] ?? '(none)'}`,
    );
  }
  return rows.join('\n');
}

function expectSame(cdp: string, page: string, what: string): void {
  const same = renumberRefs(cdp) === renumberRefs(page);
  expect(same, `${what}: the captures differ\n${same ? '' : sideBySide(cdp, page)}`).toBe(true);
}

/**
 * Differences still open, each with its cause. The test fails when one of them disappears (take it off
 * the list) as well as when a new one appears.
 */
const KNOWN_DRIFT: Record<string, string> = {};

describe('real widget libraries: in-page capture vs CDP capture, line for line', () => {
  for (const [name, lib] of Object.entries(REAL_LIBS)) {
    test(name, async () => {
      for (const state of Object.keys(lib.states)) {
        const what = `${name} (${state})`;
        await open(`/reallibs/${name}?state=${state}`);
        const [cdp, page] = [await snap('cdp'), await snap('page')];
        if (KNOWN_DRIFT[what] === undefined) expectSame(cdp, page, what);
        else
          expect(renumberRefs(cdp), `${what} now matches: take it off KNOWN_DRIFT`).not.toBe(
            renumberRefs(page),
          );
      }
    });
  }
});

/** Pages shown in three iframes (same origin, cross origin, a cross-origin one nested in a same-origin one). */
const FRAMED: Array<[string, string, string]> = [
  ['flatpickr', 'open', '.dayContainer'],
  ['sortable', 'base', '#todo'],
  ['a11y-dialog', 'shown', '.dialog-content'],
  ['tabs', 'second', '[role=tablist]'],
];

describe('real widget libraries in frames', () => {
  for (const [name, state, css] of FRAMED) {
    test(`${name} (${state}): whole page and scoped inside each frame`, async () => {
      await open(`/reallibs/frames?lib=${name}&state=${state}`);
      const cdp = await snap('cdp');
      expectSame(cdp, await snap('page'), `${name} in frames`);
      // Scoped to the widget inside each frame, reached through the frame chain.
      const chains: Array<[string, string[]]> = [
        ['same origin', ['iframe[title="Same origin"]']],
        ['cross origin', ['iframe[title="Cross origin"]']],
        ['nested', ['iframe[title="Nested"]', 'iframe[title="Inner cross origin"]']],
      ];
      for (const [kind, chain] of chains) {
        const frame = { kind: 'iframe' as const, chain: chain.map((css) => ({ css })) };
        const scope: SnapshotInput = { ...WHOLE, scope: { locator: { css, frame } } };
        const scopedCdp = await snap('cdp', scope);
        const scopedPage = await snap('page', scope);
        expect(scopedCdp, `${kind}: the CDP capture is not empty`).toMatch(/\S/);
        expectSame(scopedCdp, scopedPage, `${name} scoped in the ${kind} frame`);
      }
    });
  }
});
