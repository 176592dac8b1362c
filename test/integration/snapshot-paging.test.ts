import { describe, expect, test, type SnapshotSetup } from './support/fixtures.js';
import type { BrowserMeshError } from '../../src/errors.js';
import { clickRef } from '../../src/operations/act/ref-actions.js';
import type { SnapshotInput, SnapshotResult } from '../../src/operations/read/snapshot.js';
import { evaluate, goto, newSession, refOf, takeSnap, type PageAddress } from './snapshot-support.js';

/** Budgets, cursors, deltas and option checks, on real pages. */

let env: SnapshotSetup;
// The file's site, mesh and first session come from the shared fixtures.
test.beforeAll(({ snapshotEnv }) => {
  env = snapshotEnv;
  env.site.route('/unicode', (req, res) => {
    const items = Array.from(
      { length: 150 },
      (_, i) => `<li>${i} 家族で旅行 👨‍👩‍👧‍👦 naïve café 😀 テキスト</li>`,
    ).join('');
    const long = '👩🏽‍🚀'.repeat(600);
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><meta charset="utf-8"><title>Unicode 🌏</title><main><ul>${items}</ul><p>${long}</p><button>送信</button></main>`,
    );
  });
  env.site.route('/many-nodes', (req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(
      `<!doctype html><title>Many</title><main><button id="small">Small</button><div>${'<span>x</span>'.repeat(25_000)}</div></main>`,
    );
  });
  env.site.route('/many-chars', (req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>Chars</title><main><p>${'lorem ipsum '.repeat(180_000)}</p></main>`);
  });
});

const snap = (input: SnapshotInput = {}, at: PageAddress = env.page) => takeSnap(env.mesh, at, input);

async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    const e = error as BrowserMeshError;
    return { code: e.code, details: (e.details ?? {}) as Record<string, unknown> };
  }
  throw new Error('expected a failure');
}

/** Follows nextCursor to the end; pages that start mid-line (col > 0) continue the previous line. */
async function readAll(first: SnapshotResult): Promise<{ text: string; pages: SnapshotResult[] }> {
  const pages = [first];
  let text = first.snapshot;
  let cursor = first.nextCursor;
  while (cursor) {
    const page = await snap({ cursor });
    const midLine = !cursor.endsWith('.0');
    text += (midLine ? '' : '\n') + page.snapshot;
    pages.push(page);
    cursor = page.nextCursor;
  }
  return { text, pages };
}

describe('budgets and cursors', () => {
  test('reads the rest of the same capture, page by page, with every limit reported', async () => {
    await goto(env.mesh, env.page, env.site.url('/large'));
    const whole = await snap({ maxChars: 1_000_000, maxBytes: 4_000_000 });
    expect(whole.partial).toBe(false);
    const first = await snap({ maxChars: 20_000 });
    expect(first).toMatchObject({
      partial: true,
      truncation: { truncated: true, reason: 'maxChars', limit: 20_000 },
      limitsApplied: { maxChars: 20_000 },
    });
    expect(first.chars).toBeLessThanOrEqual(20_000);
    expect(first.originalChars).toBe(whole.chars);
    const { text, pages } = await readAll(first);
    expect(pages.length).toBeGreaterThan(4);
    expect(text).toBe(whole.snapshot);
    expect(pages.at(-1)).toMatchObject({ partial: true, nextCursor: null, truncation: { truncated: false } });
  });

  test('serves the capture, not the changed page', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/mutate'));
    const first = await snap({ maxChars: 100 });
    await evaluate(env.mesh, env.page, `document.getElementById('rename').click()`);
    const { text } = await readAll(first);
    expect(text).toContain('Original name');
    expect(text).not.toContain('Renamed button');
  });

  test('uses the default budget of 50,000 characters and 64 KiB', async () => {
    await goto(env.mesh, env.page, env.site.url('/large'));
    const result = await snap();
    expect(result.limitsApplied).toEqual({ maxChars: 50_000, maxBytes: 65_536 });
    expect(result.chars).toBeLessThanOrEqual(50_000);
    expect(result.nextCursor).not.toBeNull();
  });

  test('never splits a UTF-8 character or an emoji sequence, by chars or by bytes', async () => {
    await goto(env.mesh, env.page, env.site.url('/unicode'));
    const whole = await snap({ maxChars: 1_000_000, maxBytes: 4_000_000 });
    for (const budget of [{ maxBytes: 400 }, { maxChars: 150 }, { maxBytes: 1000, maxChars: 300 }]) {
      const { text, pages } = await readAll(await snap(budget));
      expect(text).toBe(whole.snapshot);
      for (const page of pages) {
        expect(Buffer.from(page.snapshot, 'utf8').toString('utf8')).toBe(page.snapshot);
        expect(Buffer.byteLength(page.snapshot)).toBe(page.bytes);
        expect(page.bytes).toBeLessThanOrEqual(budget.maxBytes ?? 65_536);
        expect(page.chars).toBeLessThanOrEqual(budget.maxChars ?? 50_000);
        for (const { segment } of new Intl.Segmenter().segment(page.snapshot)) {
          if (segment.includes('\u200D')) expect(['👨‍👩‍👧‍👦', '👩🏽‍🚀']).toContain(segment);
        }
      }
    }
  });

  test('invalidates cursors on navigation and refuses unknown, foreign and out-of-range ones', async () => {
    await goto(env.mesh, env.page, env.site.url('/large'));
    const first = await snap({ maxChars: 5_000 });
    const cursor = first.nextCursor ?? '';
    const [id] = cursor.split('.');
    expect(await failure(snap({ cursor: `${id}.999999.0` }))).toMatchObject({
      code: 'CURSOR_INVALID',
      details: { reason: 'out_of_range' },
    });
    expect(await failure(snap({ cursor: 'AAAAAAAAAAAA.1.0' }))).toMatchObject({
      code: 'CURSOR_INVALID',
      details: { reason: 'unknown' },
    });
    expect(await failure(snap({ cursor: 'not a cursor' }))).toMatchObject({
      code: 'CURSOR_INVALID',
      details: { reason: 'malformed' },
    });
    const other = await newSession(env.mesh);
    await goto(env.mesh, other, env.site.url('/large'));
    expect(await failure(snap({ cursor }, other))).toMatchObject({
      code: 'CURSOR_INVALID',
      details: { reason: 'unknown' },
    });
    expect((await snap({ cursor })).snapshot.length).toBeGreaterThan(0);
    await goto(env.mesh, env.page, env.site.url('/large'));
    expect(await failure(snap({ cursor }))).toMatchObject({
      code: 'CURSOR_INVALID',
      details: { reason: 'navigated' },
    });
  });

  test('keeps at most 4 captures per page', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/lists'));
    const cursors: string[] = [];
    for (let i = 0; i < 5; i++) cursors.push((await snap({ maxChars: 100 })).nextCursor ?? '');
    expect(await failure(snap({ cursor: cursors[0]! }))).toMatchObject({
      code: 'CURSOR_INVALID',
      details: { reason: 'unknown' },
    });
    expect((await snap({ cursor: cursors[4]! })).chars).toBeGreaterThan(0);
  });

  test('refuses oversize scopes before capturing (nodes, then source characters)', async () => {
    await goto(env.mesh, env.page, env.site.url('/many-nodes'));
    expect(await failure(snap({ interactiveOnly: true }))).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      details: { unit: 'nodes', limit: 20_000 },
    });
    await goto(env.mesh, env.page, env.site.url('/many-chars'));
    expect(await failure(snap())).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      details: { unit: 'chars', limit: 2_000_000 },
    });
  });

  test('scopes to one element by ref; a scope within the budget passes on a page over it', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/table'));
    const table = refOf((await snap({ interactiveOnly: false })).snapshot, /\[table @(e\d+)\]/);
    const scoped = await snap({ scope: { ref: table } });
    expect(scoped.snapshot.split('\n')[0]).toMatch(/^\[table @e\d+\] Support rota, week 20$/);
    expect(scoped.snapshot).not.toContain('Team schedule');
    expect(scoped.limitsApplied.scope).toBe(table);
  });

  test('scopes to one element by locator, with the same strictness as the element tools', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/table'));
    const byRef = await snap({ scope: { ref: refOf((await snap()).snapshot, /\[table @(e\d+)\]/) } });
    const byLocator = await snap({ scope: { locator: { css: 'table' } } });
    expect(byLocator.snapshot).toBe(byRef.snapshot);
    expect(byLocator.snapshot).not.toContain('Team schedule');
    expect(await failure(snap({ scope: { locator: { css: '#no-such-element' } } }))).toMatchObject({
      code: 'ELEMENT_NOT_FOUND',
    });
  });

  test('shows depth and child limits and what they left out', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/lists'));
    const shallow = await snap({ maxDepth: 2 });
    expect(shallow.snapshot).not.toContain('Base layer');
    expect(shallow.omitted.maxDepth).toBeGreaterThan(0);
    const narrow = await snap({ maxChildren: 1 });
    expect(narrow.snapshot).toContain('… 4 more');
    expect(narrow.omitted.maxChildren).toBeGreaterThan(0);
  });

  test('adds link urls and boxes only when asked', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/mutate'));
    expect((await snap()).snapshot).toMatch(/\[link @e\d+\] Go to lists page/);
    expect((await snap({ includeUrls: true })).snapshot).toMatch(
      /\[link @e\d+ url=\/snapshot\/lists\] Go to lists page/,
    );
    await goto(env.mesh, env.page, env.site.url('/snapshot/iframes'));
    const boxed = (await snap({ includeBoundingBoxes: true })).snapshot;
    const box = (pattern: RegExp) => (pattern.exec(boxed)?.[1] ?? '').split(',').map(Number);
    const [fx = 0, fy = 0, fw = 0, fh = 0] = box(/\[iframe @e\d+ box=([\d,-]+)\] Cross-origin frame/);
    const [bx = -1, by = -1] = box(
      /Cross-origin frame\n(?:.*\n)*?.*\[button @e\d+ box=([\d,-]+)\] Frame button/,
    );
    expect(bx).toBeGreaterThan(fx);
    expect(by).toBeGreaterThan(fy);
    expect(bx).toBeLessThan(fx + fw);
    expect(by).toBeLessThan(fy + fh);
  });
});

describe('since: previous', () => {
  test('returns only what an action changed', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/mutate'));
    const before = await snap();
    const ref = (name: string) => refOf(before.snapshot, new RegExp(`@(e\\d+) ${name}`));
    await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'click', (ctx) =>
      clickRef(ctx, ref('Replace list')),
    );
    await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'click', (ctx) =>
      clickRef(ctx, ref('Rename')),
    );
    const delta = await snap({ since: 'previous' });
    expect(delta.delta).toMatchObject({ base: 'previous', removed: 3 });
    const lines = delta.snapshot.split('\n');
    expect(lines[0]).toMatch(/^\[delta\] \+\d+ -3 ~\d+ since the previous snapshot$/);
    expect(lines).toContain('-       Item A');
    expect(lines).toContain('+       New item 1');
    expect(
      lines.some((l) => l.startsWith('~ ') && l.includes(`${ref('Original name')} Renamed button`)),
    ).toBe(true);
    expect(lines).toContain('+     [status] button renamed');
    const none = await snap({ since: 'previous' });
    expect(none.snapshot).toBe('[delta] no changes since the previous snapshot');
    expect(none.delta).toEqual({ base: 'previous', added: 0, removed: 0, changed: 0 });
  });

  test('returns the whole snapshot when there is nothing comparable (new document)', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/table'));
    const result = await snap({ since: 'previous' });
    expect(result.delta).toEqual({ base: 'none', added: 0, removed: 0, changed: 0 });
    expect(result.snapshot.startsWith('[document] Snapshot: table')).toBe(true);
  });
});

describe('options', () => {
  test.each([
    [{ cursor: 'abc.1.0', maxChars: 1000 }, 'INVALID_ARGUMENT', 'maxChars'],
    [{ cursor: 'abc.1.0', since: 'previous' }, 'INVALID_ARGUMENT', 'since'],
    [{ maxDepth: 0 }, 'INVALID_ARGUMENT', 'maxDepth'],
    [{ maxChars: 5 }, 'INVALID_ARGUMENT', 'maxChars'],
    [{ scope: { ref: '@e1', locator: { role: 'main' } } }, 'INVALID_ARGUMENT', 'scope'],
  ] as Array<[SnapshotInput, string, string]>)('%j → %s naming %s', async (input, code, field) => {
    expect(await failure(snap(input))).toMatchObject({ code, details: { field } });
  });

  test('a stale scope ref is STALE_ELEMENT_REFERENCE naming scope.ref', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/table'));
    expect(await failure(snap({ scope: { ref: '@e9999998' } }))).toMatchObject({
      code: 'STALE_ELEMENT_REFERENCE',
      details: { field: 'scope.ref' },
    });
  });
});

describe('interactive-only', () => {
  test('has every interactive element of the large page with a ref', async () => {
    await goto(env.mesh, env.page, env.site.url('/large'));
    const result = await snap({ interactiveOnly: true, maxChars: 1_000_000, maxBytes: 4_000_000 });
    const controls = await evaluate<number>(
      env.mesh,
      env.page,
      `document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea').length`,
    );
    expect(result.refCount).toBe(controls);
    expect(result.partial).toBe(false);
  });
});
