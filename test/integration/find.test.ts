import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

interface Found {
  total: number;
  returned: number;
  from: number;
  truncated: boolean;
  nextCursor: string | null;
}

async function findText(args: Record<string, unknown>): Promise<{ found: Found; text: string }> {
  const result = await h.call('browser_find', { ...s, ...args });
  if (result.isError) throw new Error(textOf(result));
  return { found: result.structuredContent as unknown as Found, text: textOf(result) };
}

const refIn = (text: string, label: string): string => {
  const match = new RegExp(`\\[${label} @(e\\d+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${label} ref in:\n${text}`);
  return match[1];
};

describe('browser_find', () => {
  test('finds one button on a big page with its context, and the ref clicks at once', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/big') });
    const { found, text } = await findText({ role: 'button', name: 'add to cart' });
    expect(found).toMatchObject({ total: 1, returned: 1, truncated: false, nextCursor: null });
    expect(text).toContain('under heading "Mesh desk lamp"');
    expect(text).toMatch(/in: main/);
    expect(text).toContain('before [button');
    expect(text.length).toBeLessThan(600);
    const ref = refIn(text, 'button');
    await h.ok('browser_click', { ...s, ref });
    expect((await findText({ text: 'Cart: 1' })).found.total).toBe(1);
    const snap = await h.ok<{ snapshot: string }>('browser_snapshot', {
      ...s,
      maxChars: 1_000_000,
      maxBytes: 4_000_000,
    });
    // The same element keeps the same ref in a snapshot: one ref table.
    expect(snap.snapshot).toMatch(new RegExp(`\\[button @${ref}( focused)?\\] Add to cart`));
  });

  test('matches text case-insensitively and regular expressions with flags', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/big') });
    const byText = await findText({ text: 'ADD TO CART' });
    expect(byText.found.total).toBe(1);
    const byRegex = await findText({ regex: '/^reply to user[1-3]$/i' });
    expect(byRegex.found.total).toBe(3);
    expect(byRegex.text.match(/\[button @e\d+\] Reply to user/g)).toHaveLength(3);
    const none = await findText({ text: 'no such words anywhere' });
    expect(none.found.total).toBe(0);
    expect(none.text).toBe('No matches.');
  });

  test('bounds the answer by count and pages on with a cursor; the cursor dies on navigation', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/big') });
    const first = await findText({ role: 'button', name: 'reply to', maxResults: 5 });
    expect(first.found).toMatchObject({ total: 60, returned: 5, from: 1, truncated: true });
    expect(first.found.nextCursor).not.toBeNull();
    const second = await findText({ cursor: first.found.nextCursor, maxResults: 5 });
    expect(second.found).toMatchObject({ total: 60, returned: 5, from: 6 });
    expect(second.text).toContain('Reply to user6');
    await h.ok('browser_navigate', { ...s, url: site.url('/large') });
    const stale = await h.err('browser_find', { ...s, cursor: second.found.nextCursor });
    expect(stale.code).toBe('CURSOR_INVALID');
  });

  test('looks inside iframes (same- and cross-origin) and open shadow roots', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/snapshot/iframes') });
    const frames = await findText({ role: 'button', name: 'frame button' });
    expect(frames.found.total).toBe(2);
    expect(frames.text).toMatch(/in: .*iframe "(Same|Cross)-origin frame"/);
    await h.ok('browser_click', { ...s, ref: refIn(frames.text, 'button') });
    await h.ok('browser_navigate', { ...s, url: site.url('/snapshot/shadow') });
    const shadow = await findText({ text: 'nested shadow button' });
    expect(shadow.found.total).toBe(1);
    await h.ok('browser_click', { ...s, ref: refIn(shadow.text, 'button') });
    const status = await h.ok<{ snapshot: string }>('browser_snapshot', { ...s });
    expect(status.snapshot).toContain('nested shadow clicked');
  });

  test('refuses a bad query with INVALID_ARGUMENT and keeps the session working', async () => {
    expect((await h.err('browser_find', { ...s })).code).toBe('INVALID_ARGUMENT');
    expect((await h.err('browser_find', { ...s, text: 'a', role: 'button' })).code).toBe('INVALID_ARGUMENT');
    expect((await h.err('browser_find', { ...s, regex: '([' })).code).toBe('INVALID_ARGUMENT');
    expect((await h.err('browser_find', { ...s, name: 'x' })).code).toBe('INVALID_ARGUMENT');
    expect((await h.err('browser_find', { ...s, cursor: 'nonsense' })).code).toBe('CURSOR_INVALID');
    await h.ok('browser_navigate', { ...s, url: site.url('/big') });
    expect((await findText({ text: 'Add to cart' })).found.total).toBe(1);
  });
});
