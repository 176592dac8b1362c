import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

/**
 * browser_wait {text} and browser_visible_text read every frame (cross-origin included)
 * and every open shadow root, match text with whitespace normalized, and take a list of texts.
 */

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const open = (path: string): Promise<unknown> =>
  h.ok('browser_navigate', { ...s, url: site.url(path), waitUntil: 'load' });
const wait = (args: Record<string, unknown>): Promise<{ satisfied: boolean; matched?: string }> =>
  h.ok('browser_wait', { ...s, timeoutMs: 10_000, ...args });
const timesOut = async (args: Record<string, unknown>): Promise<void> => {
  expect((await h.err('browser_wait', { ...s, timeoutMs: 700, ...args })).code).toBe('OPERATION_TIMEOUT');
};
const text = async (): Promise<string> => (await h.ok<{ text: string }>('browser_visible_text', s)).text;

describe('browser_visible_text', () => {
  test('reads open shadow roots (nested), never hidden shadow text', async () => {
    await open('/real/components');
    const read = await text();
    expect(read).toContain('Shadow order list');
    expect(read).toContain('Filter: all');
    expect(read).toContain('Component app');
    expect(read).not.toContain('Hidden shadow words');
    expect(read.indexOf('Orders')).toBeLessThan(read.indexOf('Shadow order list'));
  });

  test('reads same-origin and cross-origin iframes, not hidden ones', async () => {
    await open('/real/widgets');
    const read = await text();
    expect(read).toContain('Top page words');
    expect(read).toContain('Support widget ready');
    expect(read).toContain('Payment widget ready');
    expect(read).not.toContain('Invisible widget ready');
  });
});

describe('browser_wait text', () => {
  test('sees text in shadow roots, and absence waits while it is still shown', async () => {
    await open('/real/components');
    expect((await wait({ text: 'Shadow order list' })).matched).toBe('Shadow order list');
    await timesOut({ text: 'Filter: all', present: false });
    await timesOut({ text: 'Filter: open' });
  });

  test('wakes on a change inside a shadow root (the filter applies after a click)', async () => {
    await open('/real/components');
    await h.ok('browser_click', { ...s, locator: { role: 'button', name: 'Apply filter' } });
    await wait({ text: 'Filter: all', present: false });
    expect((await text()).includes('Filter: open')).toBe(true);
    await open('/real/components?ms=300');
    expect((await wait({ text: 'Filter: open' })).matched).toBe('Filter: open');
  });

  test('sees text that appears later in a cross-origin iframe', async () => {
    await open('/real/widgets?ms=300');
    expect((await wait({ text: 'Payment accepted' })).matched).toBe('Payment accepted');
    await wait({ text: 'Payment widget ready', present: false });
    await timesOut({ text: 'Support widget ready', present: false });
  });

  test('normalizes whitespace across elements', async () => {
    await open('/real/components');
    await wait({ text: 'Hello World' });
    await wait({ text: 'Hello \n  World' });
    await timesOut({ text: 'HelloWorld' });
  });

  test('takes a list: any present (says which), or none present', async () => {
    await open('/real/components?ms=300');
    const either = await wait({ text: ['Error: failed', 'Filter: open'] });
    expect(either.matched).toBe('Filter: open');
    expect((await wait({ text: ['Nowhere', 'Not here'], present: false })).matched).toBeUndefined();
    await timesOut({ text: ['Nowhere', 'Shadow order list'], present: false });
  });

  test('refuses empty and oversized text lists, and blank text', async () => {
    await open('/real/components');
    for (const bad of [[], Array.from({ length: 11 }, (_, i) => `t${i}`), '   ', ['ok', ' \n ']]) {
      const error = await h.err('browser_wait', { ...s, text: bad });
      expect(error.code).toBe('INVALID_ARGUMENT');
    }
    // The session keeps working.
    await wait({ text: 'Shadow order list' });
  });
});
