/**
 * browser_find scoped to an element inside a same-origin, a cross-origin and a nested (cross-origin
 * inside same-origin) iframe, on a page built on a real library (GitHub's <tab-container>): only that
 * frame's matches come back, with the refs a full snapshot gives, by locator and by ref, with the
 * in-page capture and with the CDP capture, as in the main document. Bad scopes get stable codes.
 */
import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import type { SnapshotCaptureMode } from '../../src/snapshot/capture-mode.js';
import { find, type FindOptions } from '../../src/operations/read/find.js';
import { snapshot, type SnapshotInput } from '../../src/operations/read/snapshot.js';
import { renumberRefs } from './snapshot-support.js';
import { describe, expect, test, type SnapshotSetup } from './support/fixtures.js';
import { FRAMES, frame } from './support/frame-chains.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };
let env: SnapshotSetup;

test.beforeAll(async ({ site: fileSite, harness, snapshotEnv }) => {
  site = fileSite;
  h = harness;
  env = snapshotEnv;
  s = await h.session();
});

const PAGE = '/reallibs/frames?lib=tabs&state=second';
const TABS = /^\d+\. (\[tab @e\d+[^\]]*\] (?:Code|Issues|Pull requests))$/gm;

interface Found {
  text: string;
  total: number;
}

async function mcpFind(args: Record<string, unknown>): Promise<Found> {
  const result = await h.call('browser_find', { ...s, ...args });
  if (result.isError) throw new Error(textOf(result));
  const { total } = result.structuredContent as { total: number };
  return { text: textOf(result), total };
}

/**
 * The matched tabs' lines of a find's answer (not its context lines), in order, without the focus
 * flag: the frames' libraries race for the focus as they start.
 */
const tabLines = (text: string): string[] =>
  [...text.matchAll(TABS)].map((m) => (m[1] ?? '').replace(' focused', ''));

describe('browser_find scoped inside a frame (MCP)', () => {
  for (const [kind, chain] of FRAMES) {
    test(`by locator and by ref, in the ${kind} frame`, async () => {
      await h.ok('browser_navigate', { ...s, url: site.url(PAGE) });
      const scope = { locator: { css: 'tab-container', frame: frame(chain) } };
      // Polled until the frame's library has started and selected its second tab.
      await expect
        .poll(async () => (await mcpFind({ role: 'tab', name: 'issues', scope })).text, { timeout: 20_000 })
        .toMatch(/\[tab @e\d+ selected[^\]]*\] Issues/);
      const scoped = await mcpFind({ role: 'tab', scope });
      expect(scoped.total).toBe(3);
      expect(tabLines(scoped.text)).toHaveLength(3);
      // The whole page holds the same tabs three times; the scoped refs are the full snapshot's.
      const all = await mcpFind({ role: 'tab' });
      expect(all.total).toBe(9);
      const full = await h.ok<{ snapshot: string }>('browser_snapshot', {
        ...s,
        maxChars: 1_000_000,
        maxBytes: 4_000_000,
      });
      for (const line of tabLines(scoped.text))
        expect(full.snapshot.replaceAll(' focused', '')).toContain(line);
      // Text outside the frame is not found inside it.
      expect((await mcpFind({ text: 'Outer frame' })).total).toBe(1);
      expect((await mcpFind({ text: 'Outer frame', scope })).total).toBe(0);
      // A ref from the full snapshot scopes the same way: the frame's own iframe element, and a tab.
      const title = kind === 'nested' ? 'Inner cross origin' : (/"(.+)"/.exec(chain[0] ?? '')?.[1] ?? '');
      const iframeRef = new RegExp(`\\[iframe (@e\\d+)\\] ${title}`).exec(full.snapshot)?.[1] ?? '';
      expect(iframeRef).toMatch(/^@e\d+$/);
      const byRef = await mcpFind({ role: 'tab', scope: { ref: iframeRef } });
      expect(tabLines(byRef.text)).toEqual(tabLines(scoped.text));
      const tabRef = /\[tab (@e\d+)[^\]]*\] Issues/.exec(scoped.text)?.[1] ?? '';
      const byTab = await mcpFind({ role: 'tab', scope: { ref: tabRef } });
      expect(byTab.total).toBe(1);
      expect(tabLines(byTab.text)[0]).toContain(`[tab ${tabRef}`);
    });
  }

  test('a scope in the main document reaches into the frames below it', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url(PAGE) });
    const scope = { locator: { css: 'section:has(iframe[title="Cross origin"])' } };
    await expect.poll(async () => (await mcpFind({ role: 'tab', scope })).total, { timeout: 20_000 }).toBe(3);
    const found = await mcpFind({ role: 'tab', name: 'issues', scope });
    expect(found.text).toMatch(/in: .*iframe "Cross origin"/);
    expect((await mcpFind({ role: 'heading', name: 'same origin', scope })).total).toBe(0);
  });

  test('bad scopes get stable codes and the session keeps working', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url(PAGE) });
    const both = await h.err('browser_find', {
      ...s,
      role: 'tab',
      scope: { ref: '@e1', locator: { css: 'body' } },
    });
    expect(both.code).toBe('INVALID_ARGUMENT');
    const neither = await h.err('browser_find', { ...s, role: 'tab', scope: {} });
    expect(neither.code).toBe('INVALID_ARGUMENT');
    const missing = await h.err('browser_find', {
      ...s,
      role: 'tab',
      scope: { locator: { css: '#nothing-here', frame: frame(['iframe[title="Cross origin"]']) } },
    });
    expect(missing.code).toBe('ELEMENT_NOT_FOUND');
    const stale = await h.err('browser_find', { ...s, role: 'tab', scope: { ref: '@e999999' } });
    expect(stale.code).toBe('STALE_ELEMENT_REFERENCE');
    const withCursor = await h.err('browser_find', { ...s, cursor: 'x', scope: { ref: '@e1' } });
    expect(withCursor.code).toBe('INVALID_ARGUMENT');
    expect((await mcpFind({ text: 'Frames: tabs' })).total).toBe(1);
  });
});

async function libFind(mode: SnapshotCaptureMode, input: FindOptions): Promise<string> {
  return env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'find', async (ctx) => {
    const result = await find({ ...ctx, config: { ...ctx.config, snapshotCapture: mode } }, input);
    return result.text;
  });
}

async function libSnapshot(mode: SnapshotCaptureMode, scope: SnapshotInput['scope']): Promise<string> {
  return env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'snapshot', async (ctx) => {
    const result = await snapshot({ ...ctx, config: { ...ctx.config, snapshotCapture: mode } }, { scope });
    return result.snapshot;
  });
}

describe('scoped find and snapshot: in-page capture and CDP capture agree', () => {
  test('the same matches and refs in every kind of frame', async () => {
    await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'goto', async (ctx) => {
      await ctx.page.page.goto(env.site.url(PAGE), { waitUntil: 'load' });
    });
    for (const [kind, chain] of FRAMES) {
      const scope = { locator: { css: 'tab-container', frame: frame(chain) } };
      await expect
        .poll(() => libFind('cdp', { role: 'tab', name: 'issues', scope }), { timeout: 20_000 })
        .toMatch(/selected/);
      const cdp = await libFind('cdp', { role: 'tab', scope });
      const page = await libFind('page', { role: 'tab', scope });
      expect(tabLines(cdp), kind).toHaveLength(3);
      expect(renumberRefs(page), kind).toBe(renumberRefs(cdp));
      // The scope is an element Chromium leaves out of its tree (its content is in its shadow root):
      // a snapshot scoped to it shows that content in both captures.
      const [cdpLines, pageLines] = [await libSnapshot('cdp', scope), await libSnapshot('page', scope)];
      expect(cdpLines, kind).toMatch(/^\[generic\]\n {2}\[tablist\]/);
      expect(renumberRefs(pageLines), kind).toBe(renumberRefs(cdpLines));
    }
  });
});
