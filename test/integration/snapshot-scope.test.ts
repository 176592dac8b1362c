import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

/** A scoped snapshot shows its container's subtree with working refs, or says why it is empty. */

interface Snap {
  snapshot: string;
  refCount: number;
  empty?: boolean;
  emptyReason?: string;
}

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  site.route('/huge-list', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    const rows = '<div><span>x</span></div>'.repeat(7_500);
    res.end(
      `<!doctype html><title>Huge</title><main><div id="rows">${rows}</div>` +
        `<section id="tools"><button type="button">Export</button></section></main>`,
    );
  });
  h = harness;
  s = await h.session();
});

const scoped = (locator: Record<string, unknown>): Promise<Snap> =>
  h.ok<Snap>('browser_snapshot', { ...s, scope: { locator } });

describe('scoped browser_snapshot', () => {
  test('scopes to lists, tables, forms, landmarks and unnamed containers', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/real/scopes') });
    const list = await scoped({ role: 'list', name: 'Things' });
    expect(list.snapshot.split('\n')[0]).toMatch(/^\[list\] Things$/);
    expect(list.snapshot).toContain('First thing');
    expect(list.snapshot).toContain('Second thing');
    expect(list.snapshot).not.toContain('Tea');
    expect((await scoped({ css: 'ul' })).snapshot).toBe(list.snapshot);
    const table = await scoped({ css: 'table' });
    expect(table.snapshot).toContain('Tea');
    expect(table.snapshot).not.toContain('First thing');
    const form = await scoped({ role: 'form' });
    expect(form.snapshot).toMatch(/\[textbox @e\d+\] Email/);
    expect(form.snapshot).toMatch(/\[button @e\d+\] Join/);
    const main = await scoped({ css: 'main' });
    expect(main.snapshot.split('\n')[0]).toBe('[main]');
    expect(main.snapshot).toContain('Scopes');
    // Containers pruning would dissolve still scope to their own subtree.
    const section = await scoped({ css: '#plain-section' });
    expect(section.snapshot).toContain('Only words live in this section.');
    expect(section.snapshot).not.toContain('Loose text');
    const div = await scoped({ css: '#plain-div' });
    expect(div.snapshot).toContain('Loose text in a div');
    for (const result of [list, table, form, main, section, div]) {
      expect(result.empty).toBeUndefined();
      expect(result.snapshot).not.toBe('');
    }
  });

  test('refs from a scoped snapshot work', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/real/scopes') });
    const div = await scoped({ css: '#plain-div' });
    const ref = /\[button (@e\d+)\]? "?Div button/.exec(div.snapshot)?.[1];
    expect(ref).toBeDefined();
    await h.ok('browser_click', { ...s, ref });
    const list = await scoped({ role: 'list', name: 'Things' });
    const link = /\[link (@e\d+)\]? "?First thing/.exec(list.snapshot)?.[1];
    await h.ok('browser_click', { ...s, ref: link });
    expect((await h.ok<{ url: string }>('browser_get_url', s)).url).toMatch(/#one$/);
  });

  test('says why a scope is empty instead of returning an empty success', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/real/scopes') });
    const hidden = await scoped({ css: '#hidden-box' });
    expect(hidden).toMatchObject({ snapshot: '', empty: true, emptyReason: 'not_rendered', refCount: 0 });
    const empty = await scoped({ css: '#empty-box' });
    expect(empty).toMatchObject({ snapshot: '', empty: true, emptyReason: 'no_content' });
    const text = await h.call('browser_snapshot', { ...s, scope: { locator: { css: '#hidden-box' } } });
    expect(JSON.stringify(text.content)).toContain('empty scope');
    // A full snapshot is never marked empty.
    expect((await h.ok<Snap>('browser_snapshot', s)).empty).toBeUndefined();
  });

  test('the LIMIT_EXCEEDED hint leads to a scope that works', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/huge-list') });
    const refused = await h.err('browser_snapshot', s);
    expect(refused.code).toBe('LIMIT_EXCEEDED');
    const tools = await scoped({ css: '#tools' });
    expect(tools.snapshot).toMatch(/\[button @e\d+\] Export/);
    expect(tools.empty).toBeUndefined();
  });
});
