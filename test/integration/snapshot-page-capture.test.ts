import { describe, expect, test, type SnapshotSetup } from './support/fixtures.js';
import { clickRef } from '../../src/operations/act/ref-actions.js';
import { lastCaptureKind, type SnapshotCaptureMode } from '../../src/snapshot/capture-mode.js';
import { ensureListenersHook } from '../../src/snapshot/page-world.js';
import { takeSnapshot } from '../../src/snapshot/snapshot.js';
import { evaluate, newSession, refOf, renumberRefs, type PageAddress } from './snapshot-support.js';

/**
 * The accuracy guard of the in-page capture (src/snapshot/page-capture.ts): on every fixture page and
 * on the saved widget-library pages, the in-page capture and Chromium's CDP tree give the same lines:
 * roles, names, states, values, and refs on the same lines. Then: its refs act on the right element
 * and go stale like CDP refs, and `auto` takes the CDP capture where the in-page one cannot answer.
 */

const PAGES = [
  '/',
  '/large',
  '/forms',
  '/snapshot/table',
  '/snapshot/lists',
  '/snapshot/dialog',
  '/snapshot/iframes',
  '/snapshot/shadow',
  '/snapshot/clickable',
  '/snapshot/hidden',
  '/snapshot/mutate',
  '/snapshot/pseudo',
  '/real/scopes',
  '/real/components',
  '/real/widgets',
  '/real/grid',
  '/shop',
  '/shop/cart',
  '/shop/checkout',
  '/actions/buttons',
  '/actions/checkboxes',
  '/actions/select',
  '/actions/keyboard',
  '/actions/scroll',
  '/actions/drag',
  '/actions/covered',
  '/actions/iframe-chain',
  '/actions/ambiguous',
  '/files/upload',
  '/shots/',
  '/libs/aria-widgets',
  '/libs/material',
  '/libs/csp',
];

/** Pages that change by themselves after load: compared once they have settled. */
const SETTLED: Record<string, string> = {
  '/actions/buttons': "document.getElementById('delayed-status').textContent === 'enabled'",
};

let env: SnapshotSetup;
// The file's site, mesh and first session come from the shared fixtures.
test.beforeAll(({ snapshotEnv }) => {
  env = snapshotEnv;
});

const WHOLE = { maxChars: 1_000_000, maxBytes: 4_194_304 };

function snap(
  mode: SnapshotCaptureMode,
  at: PageAddress = env.page,
): Promise<{ text: string; kind: string | undefined }> {
  return env.mesh.runOnPage(at.sessionId, at.pageId, 'snapshot', async (ctx) => {
    const result = await takeSnapshot(ctx.page, WHOLE, {
      deadline: ctx.deadline,
      refTtlMs: 0,
      capture: mode,
    });
    return { text: result.snapshot, kind: lastCaptureKind(ctx.page) };
  });
}

/** Loads a page the way the tools do: the click-listener hook is in place before the page's scripts. */
async function open(path: string, at: PageAddress = env.page): Promise<void> {
  await env.mesh.runOnPage(at.sessionId, at.pageId, 'goto', async (ctx) => {
    await ensureListenersHook(ctx.page);
    await ctx.page.page.goto(env.site.url(path), { waitUntil: 'load' });
    const settled = SETTLED[path];
    if (settled) await ctx.page.page.waitForFunction(settled);
  });
}

describe('in-page capture vs CDP capture, line for line', () => {
  for (const path of PAGES) {
    test(path, async () => {
      await open(path);
      const cdp = await snap('cdp');
      const page = await snap('page');
      expect(page.kind).toBe('page');
      expect(renumberRefs(page.text).split('\n')).toEqual(renumberRefs(cdp.text).split('\n'));
    });
  }
});

describe('pseudo-element text', () => {
  const KINDS: Array<[string, RegExp]> = [
    ['media', /@e\d+ Media from media/],
    ['nested', /@e\d+ Nested rule/],
    ['imported', /@e\d+ Imported sheet/],
    ['adopted', /@e\d+ Adopted sheet/],
    ['host', /Host says hello/],
    ['part', /\[button @e\d+\] Styled by part/],
  ];
  for (const [kind, line] of KINDS) {
    test(`is read when the only sheet that sets content on ::before or ::after is ${kind}`, async () => {
      await open(`/snapshot/pseudo?only=${kind}`);
      const { text, kind: captured } = await snap('page');
      expect(captured).toBe('page');
      expect(text).toMatch(line);
    });
  }
});

describe('refs from the in-page capture', () => {
  test('act on their element, keep their name across snapshots and go stale on navigation', async () => {
    await open('/actions/buttons');
    const first = await snap('page');
    const second = await snap('page');
    const line = /\[button @(e\d+)\] Increment/;
    const ref = refOf(first.text, line);
    expect(refOf(second.text, line)).toBe(ref);
    await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'click', (ctx) => clickRef(ctx, ref));
    expect(await evaluate<string>(env.mesh, env.page, 'document.getElementById("count").textContent')).toBe(
      'Count: 1',
    );
    await open('/forms');
    const stale = await env.mesh
      .runOnPage(env.page.sessionId, env.page.pageId, 'click', (ctx) => clickRef(ctx, ref))
      .catch((e: unknown) => e);
    expect(stale).toMatchObject({ code: 'STALE_ELEMENT_REFERENCE' });
  });

  test('scope a snapshot to their element, with the refs a full snapshot gives', async () => {
    await open('/snapshot/table');
    const full = await snap('page');
    const ref = refOf(full.text, /\[table @(e\d+)/);
    for (const capture of ['page', 'cdp'] as const) {
      const scoped = await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'snapshot', (ctx) =>
        takeSnapshot(ctx.page, { scope: { ref } }, { deadline: ctx.deadline, refTtlMs: 0, capture }),
      );
      expect(scoped.snapshot).toMatch(/^\[table @e\d+\] Support rota, week 20/);
      if (capture === 'page') expect(scoped.snapshot.split('\n')[0]).toContain(ref);
    }
  });
});

describe('auto capture', () => {
  test('answers from the page under a CSP that forbids every script (the browser runs it, not the page)', async () => {
    await open('/libs/csp');
    expect((await snap('auto')).kind).toBe('page');
  });

  test('falls back to the CDP tree for a document with a closed shadow root (the capture cannot see into it)', async () => {
    await open('/libs/closed-shadow');
    const auto = await snap('auto');
    expect(auto.kind).toBe('cdp');
    expect(auto.text).toMatch(/\[button @e\d+\] Sealed action/);
  });

  test('falls back to the CDP tree for out-of-process iframes (their documents load without the hook)', async () => {
    await open('/snapshot/iframes');
    expect((await snap('auto')).kind).toBe('cdp');
  });

  test('falls back to the CDP tree where the click-listener hook came too late for the document', async () => {
    const late = await newSession(env.mesh);
    await env.mesh.runOnPage(late.sessionId, late.pageId, 'goto', async (ctx) => {
      await ctx.page.page.goto(env.site.url('/libs/material'), { waitUntil: 'load' });
    });
    const auto = await snap('auto', late);
    expect(auto.kind).toBe('cdp');
    expect(renumberRefs(auto.text)).toBe(renumberRefs((await snap('cdp', late)).text));
    // The next document has the hook from its start: the in-page capture answers again.
    await open('/libs/material', late);
    expect((await snap('auto', late)).kind).toBe('page');
  });
});
