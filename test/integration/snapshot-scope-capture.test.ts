import { describe, expect, test as fixtureTest, type SnapshotSetup } from './support/fixtures.js';
import type { SnapshotInput } from '../../src/operations/read/snapshot.js';
import { goto, refOf, takeSnap } from './snapshot-support.js';

/**
 * A scoped snapshot must not pay for the whole page's tree. It fetches the accessibility
 * tree of its scope (plus the path down to it), never the full tree of the document it lives in, and
 * shows exactly the lines the same element has in a full snapshot. These are properties of the CDP
 * capture (the in-page capture scopes a whole-page capture instead): it is pinned here.
 */

let env: SnapshotSetup;
// The file's site, mesh (CDP capture) and first session come from the shared fixtures.
const test = fixtureTest.extend('snapshotConfig', { scope: 'file' }, () => ({
  snapshotCapture: 'cdp' as const,
}));

test.beforeAll(({ snapshotEnv }) => {
  env = snapshotEnv;
  env.site.route('/scope-hidden-bits', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(
      '<!doctype html><title>Bits</title><main>' +
        '<section id="noisy"><div aria-hidden="true"><p>Out 1</p><p>Out 2</p></div><p>Away</p></section>' +
        '<section id="quiet" aria-label="Quiet"><div aria-hidden="true">Hidden here</div><button>In</button></section>' +
        '</main>',
    );
  });
  env.site.route('/scope-nested', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(
      '<!doctype html><title>Nested</title><main><div role="dialog" id="outer" aria-label="Outer">' +
        '<p>Before the list</p><ul id="inner" aria-label="Inner"><li>One</li><li>Two</li></ul>' +
        '<button>After the list</button></div></main>',
    );
  });
});

interface CdpCall {
  method: string;
  params: Record<string, unknown> | undefined;
}

/**
 * Records the CDP commands the page's own session sends while `run` runs (an observer on the real
 * session: every call still reaches the browser).
 */
async function recordCdp<T>(run: () => Promise<T>): Promise<{ result: T; calls: CdpCall[] }> {
  const at = env.page;
  const calls: CdpCall[] = [];
  const session = await env.mesh.runOnPage(at.sessionId, at.pageId, 'spy', (ctx) => ctx.page.cdp());
  const original = session.send.bind(session);
  const spy = ((method: string, params?: Record<string, unknown>, ...rest: unknown[]) => {
    calls.push({ method, params });
    return (original as (...args: unknown[]) => Promise<unknown>)(method, params, ...rest);
  }) as typeof session.send;
  session.send = spy;
  try {
    return { result: await run(), calls };
  } finally {
    session.send = original;
  }
}

/** The lines of the element whose line starts with `first` in a full snapshot, dedented. */
function blockOf(full: string, first: RegExp): string {
  const lines = full.split('\n');
  const start = lines.findIndex((l) => first.test(l.trimStart()));
  if (start < 0) throw new Error(`no line matches ${first}`);
  const indent = (l: string): number => l.length - l.trimStart().length;
  const base = indent(lines[start] ?? '');
  const out = [lines[start] ?? ''];
  for (const line of lines.slice(start + 1)) {
    if (indent(line) <= base) break;
    out.push(line);
  }
  return out.map((l) => l.slice(base)).join('\n');
}

/** Whether the scoped snapshot's body (its lines under the scope's own) appears as such in the full one. */
function inFull(full: string, scoped: string): boolean {
  const body = scoped
    .split('\n')
    .slice(1)
    .map((l) => l.slice(2));
  const lines = full.split('\n');
  return lines.some((line, i) => {
    const indent = line.length - line.trimStart().length;
    return body.every((b, k) => lines[i + k] === ' '.repeat(indent) + b);
  });
}

const snap = (input: SnapshotInput = {}) => takeSnap(env.mesh, env.page, input);
const isFullTree = (c: CdpCall): boolean => c.method === 'Accessibility.getFullAXTree';

describe('scoped snapshot capture', () => {
  test('fetches the scope subtree only, with the lines a full snapshot has for it', async () => {
    await goto(env.mesh, env.page, env.site.url('/large'));
    const full = (await snap({ maxChars: 1_000_000, maxBytes: 4_000_000 })).snapshot;
    const byLocator = await recordCdp(() => snap({ scope: { locator: { css: '#actions' } } }));
    expect(byLocator.result.snapshot.split('\n')[0]).toBe('[region] Quick actions');
    expect(inFull(full, byLocator.result.snapshot)).toBe(true);
    expect(byLocator.calls.filter(isFullTree)).toEqual([]);
    expect(byLocator.calls.some((c) => c.method === 'Accessibility.queryAXTree')).toBe(true);
    const table = refOf(full, /\[table @(e\d+)\] Table 2:/);
    const byRef = await recordCdp(() => snap({ scope: { ref: table } }));
    expect(byRef.result.snapshot).toBe(blockOf(full, /^\[table @e\d+\] Table 2:/));
    expect(byRef.calls.filter(isFullTree)).toEqual([]);
    const byRole = await snap({ scope: { locator: { css: '#table-2' } } });
    expect(byRole.snapshot).toBe(byRef.result.snapshot);
    // The page title still comes with a scoped capture, and refs from it act.
    expect(byRef.result.title).toBe((await snap()).title);
  });

  test('keeps iframes inside the scope, and scopes inside an iframe', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/iframes'));
    const full = (await snap()).snapshot;
    const main = await recordCdp(() => snap({ scope: { locator: { css: 'main' } } }));
    expect(main.result.snapshot).toBe(blockOf(full, /^\[main\]$/));
    expect(main.result.snapshot).toContain('Frame button');
    // The frames inside the scope are captured whole; the page's own document is not.
    const mainFrameId = await env.mesh.runOnPage(
      env.page.sessionId,
      env.page.pageId,
      'frame',
      async (ctx) => {
        const { frameTree } = await (await ctx.page.cdp()).send('Page.getFrameTree');
        return frameTree.frame.id;
      },
    );
    expect(main.calls.filter(isFullTree).map((c) => c.params?.frameId)).not.toContain(mainFrameId);
    for (const frame of [/^\[iframe @e\d+\] Same-origin frame$/, /^\[iframe @e\d+\] Cross-origin frame$/]) {
      const ref = refOf(full, new RegExp(frame.source.replace('@e\\d+', '@(e\\d+)').slice(1, -1)));
      const scoped = await snap({ scope: { ref } });
      expect(scoped.snapshot).toBe(blockOf(full, frame));
      const button = refOf(scoped.snapshot, /\[button @(e\d+)\] Frame button/);
      expect(button).toMatch(/^@e\d+$/);
    }
  });

  test('scopes into shadow DOM and leaves aria-hidden content out', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/shadow'));
    const full = (await snap()).snapshot;
    const card = await recordCdp(() => snap({ scope: { locator: { css: '#card' } } }));
    expect(card.result.snapshot).toContain('Nested shadow button');
    expect(card.result.snapshot.split('\n')[0]).toBe('[generic]');
    expect(inFull(full, card.result.snapshot)).toBe(true);
    expect(card.calls.filter(isFullTree)).toEqual([]);
    await goto(env.mesh, env.page, env.site.url('/scope-hidden-bits'));
    const quiet = await snap({ scope: { locator: { css: '#quiet' } } });
    expect(quiet.snapshot).toMatch(/^\[region\] Quiet\n {2}\[button @e\d+\] In$/);
  });

  test('since previous compares a scoped snapshot with the same scope, never a full one with a scope', async () => {
    await goto(env.mesh, env.page, env.site.url('/real/scopes'));
    const scope = { locator: { css: 'table' } };
    await snap({ scope });
    const again = await snap({ scope, since: 'previous' });
    expect(again.delta).toMatchObject({ base: 'previous', added: 0, removed: 0 });
    // The scoped tree lacks the rest of the page: a full snapshot has nothing to compare with.
    const full = await snap({ since: 'previous' });
    expect(full.delta).toMatchObject({ base: 'none' });
    expect(full.snapshot).toContain('Scopes');
    const next = await snap({ since: 'previous' });
    expect(next.delta).toMatchObject({ base: 'previous', added: 0, removed: 0 });
  });

  test('since previous never compares a scope with the part of it a narrower scoped capture held', async () => {
    await goto(env.mesh, env.page, env.site.url('/scope-nested'));
    const outer = { locator: { css: '#outer' } };
    expect((await snap({ scope: outer })).snapshot).toMatch(/^\[dialog @e\d+\] Outer\n/);
    await snap({ scope: { locator: { css: '#inner' } } });
    // The inner capture held the outer dialog only as the path to the list: nothing to compare with.
    const wider = await snap({ scope: outer, since: 'previous' });
    expect(wider.delta).toMatchObject({ base: 'none' });
    expect(wider.snapshot).toContain('After the list');
    // A narrower (keyed) scope inside the previous one compares as before.
    const button = { locator: { role: 'button', name: 'After the list' } };
    const narrower = await snap({ scope: button, since: 'previous' });
    expect(narrower.delta).toMatchObject({ base: 'previous', added: 0, removed: 0 });
  });

  test('a hidden, removed or unknown scope fails or says why as before', async () => {
    await goto(env.mesh, env.page, env.site.url('/real/scopes'));
    const hidden = await snap({ scope: { locator: { css: '#hidden-box' } } });
    expect(hidden).toMatchObject({ snapshot: '', empty: true, emptyReason: 'not_rendered' });
    await expect(snap({ scope: { locator: { css: '#no-such-element' } } })).rejects.toMatchObject({
      code: 'ELEMENT_NOT_FOUND',
    });
    const table = refOf((await snap()).snapshot, /\[table @(e\d+)\]/);
    await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'remove', (ctx) =>
      ctx.page.page.evaluate(() => document.querySelector('table')?.remove()),
    );
    expect(await snap({ scope: { ref: table } })).toMatchObject({ empty: true, emptyReason: 'not_rendered' });
    // The session keeps working.
    expect((await snap()).snapshot).toContain('Scopes');
  });
});
