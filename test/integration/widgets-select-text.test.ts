/**
 * Selecting text: browser_focus { selectText, occurrence } selects text by its content
 * inside an element — a word in a contenteditable paragraph, made bold with Control+B; a range of a
 * textarea's value — and refuses text that is not there.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { McpHarness, textOf } from '../helpers/harness.js';
import { refOf } from './support/refs.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const read = async (code: string): Promise<unknown> => {
  const result: CallToolResult = await h.call('browser_run', { ...s, timeoutMs: 30_000, code });
  expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
  return (result.structuredContent as { value: unknown }).value;
};

describe('browser_focus selectText', () => {
  test('selects one word in a contenteditable paragraph; Control+B makes that word bold', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/editable') });
    const para = { locator: { css: '#para' } };
    await h.ok('browser_focus', { ...s, ...para, selectText: 'fox' });
    await h.ok('browser_press', { ...s, key: 'Control+b' });
    expect(await read(`return await page.locator('#para b').allTextContents();`)).toEqual(['fox']);
    await h.ok('browser_focus', { ...s, ...para, selectText: 'brown', occurrence: 2 });
    await h.ok('browser_press', { ...s, key: 'Control+b' });
    expect(await read(`return await page.locator('#para b').allTextContents();`)).toEqual(['fox', 'brown']);
  });

  test('gives the contenteditable a textbox ref in both capture modes; the ref selects and types', async () => {
    for (const snapshotCapture of ['page', 'cdp'] as const) {
      const own = await McpHarness.start({ snapshotCapture });
      try {
        const t = await own.session();
        await own.ok('browser_navigate', { ...t, url: site.url('/widgets/editable') });
        const snap = textOf(await own.call('browser_snapshot', t));
        // The editor has a ref like any textbox; its text stays visible below it.
        const ref = refOf(snap, /\[textbox (@e\d+)\] Note/);
        expect(snap, snapshotCapture).toContain('fox jumps over');
        await own.ok('browser_focus', { ...t, ref, selectText: 'fox' });
        await own.ok('browser_press', { ...t, key: 'Control+b' });
        const bold = await own.ok<{ value: string[] }>('browser_run', {
          ...t,
          code: `return await page.locator('#para b').allTextContents();`,
        });
        expect(bold.value, snapshotCapture).toEqual(['fox']);
      } finally {
        await own.close();
      }
    }
  });

  test('selects a range of a textarea value (typing replaces it)', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/editable') });
    await h.ok('browser_focus', { ...s, locator: { css: '#area' }, selectText: 'two', occurrence: 2 });
    await h.ok('browser_press', { ...s, key: 'X' });
    expect(await read(`return await page.locator('#area').inputValue();`)).toBe('one two three X');
  });

  test('refuses text that is not there, and bad occurrences', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/widgets/editable') });
    const missing = await h.err('browser_focus', { ...s, locator: { css: '#para' }, selectText: 'cat' });
    expect(missing.code).toBe('INVALID_ARGUMENT');
    expect(missing.details?.field).toBe('selectText');
    const third = await h.err('browser_focus', {
      ...s,
      locator: { css: '#para' },
      selectText: 'brown',
      occurrence: 3,
    });
    expect(third.code).toBe('INVALID_ARGUMENT');
    const zero = await h.err('browser_focus', {
      ...s,
      locator: { css: '#para' },
      selectText: 'fox',
      occurrence: 0,
    });
    expect(zero.code).toBe('INVALID_ARGUMENT');
    await h.ok('browser_focus', { ...s, locator: { css: '#para' } });
  });
});
