import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

/** browser_snapshot through the MCP server: the text block is the snapshot itself, the structured result validates. */

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

describe('browser_snapshot over MCP', () => {
  test('returns the snapshot text itself (never JSON-escaped) plus the structured result', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/forms') });
    const result = await h.call('browser_snapshot', { ...s, interactiveOnly: true });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      snapshot: string;
      refCount: number;
      limitsApplied: Record<string, unknown>;
    };
    expect(textOf(result)).toBe(structured.snapshot);
    expect(textOf(result).startsWith('[document] All form controls\n')).toBe(true);
    expect(structured.limitsApplied).toEqual({ maxChars: 50_000, maxBytes: 65_536, interactiveOnly: true });
    expect(structured.refCount).toBeGreaterThan(30);
  });

  test('says in the text when it was cut and how to read on', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/large') });
    const first = await h.call('browser_snapshot', { ...s, maxChars: 2_000 });
    const { nextCursor } = first.structuredContent as { nextCursor: string };
    expect(textOf(first).split('\n').at(-1)).toBe(
      `[cut at maxChars 2000: ${(first.structuredContent as { chars: number }).chars} of ${(first.structuredContent as { originalChars: number }).originalChars} chars; more with cursor "${nextCursor}"]`,
    );
    const next = await h.ok<{ snapshot: string; partial: boolean }>('browser_snapshot', {
      ...s,
      cursor: nextCursor,
    });
    expect(next.partial).toBe(true);
    const error = await h.err('browser_snapshot', { ...s, cursor: nextCursor, interactiveOnly: true });
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'interactiveOnly' } });
  });

  test('scopes browser_visible_text to one element by ref', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/snapshot/dialog') });
    const snap = await h.ok<{ snapshot: string }>('browser_snapshot', s);
    const ref = /\[dialog (@e\d+) modal\]/.exec(snap.snapshot)?.[1];
    const text = await h.ok<{ text: string }>('browser_visible_text', { ...s, scope: { ref } });
    expect(text.text).toContain('This cannot be undone.');
    expect(text.text).not.toContain('Some page content');
  });

  test('acts on refs end to end: snapshot, click, fill, then only what changed', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/snapshot/iframes') });
    const frames = await h.ok<{ snapshot: string }>('browser_snapshot', { ...s, interactiveOnly: true });
    const crossButton = [...frames.snapshot.matchAll(/\[button (@e\d+)\] Frame button/g)][1]?.[1];
    const crossInput = [...frames.snapshot.matchAll(/\[textbox (@e\d+)\] Frame input/g)][1]?.[1];
    await h.ok('browser_click', { ...s, ref: crossButton });
    await h.ok('browser_fill', { ...s, ref: crossInput, value: 'over MCP' });
    const delta = await h.ok<{ snapshot: string; delta: { base: string } }>('browser_snapshot', {
      ...s,
      since: 'previous',
    });
    expect(delta.delta.base).toBe('previous');
    expect(delta.snapshot).toContain(`~       [textbox ${crossInput} focused value="over MCP"] Frame input`);
    await h.ok('browser_navigate', { ...s, url: site.url('/snapshot/iframes') });
    const stale = await h.err('browser_click', { ...s, ref: crossButton });
    expect(stale.code).toBe('STALE_ELEMENT_REFERENCE');
  });
});
