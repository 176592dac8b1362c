/**
 * Seed 003's `includeRefs` / `maxRefs` snapshot arguments, accepted with the seed's
 * meaning: includeRefs: true writes at most maxRefs refs (default 50, at most 100), interactive
 * elements first; includeRefs: false writes none; without either every ref is written, as before.
 */
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

interface Snap {
  snapshot: string;
  refCount: number;
  omitted: Record<string, number>;
  limitsApplied: Record<string, unknown>;
}

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/large') });
});

describe('browser_snapshot includeRefs / maxRefs (seed 003)', () => {
  test('includeRefs: true writes the default 50 refs and counts the rest as omitted', async () => {
    const all = await h.ok<Snap>('browser_snapshot', { ...s, interactiveOnly: true });
    expect(all.refCount).toBeGreaterThan(100);
    const capped = await h.ok<Snap>('browser_snapshot', { ...s, interactiveOnly: true, includeRefs: true });
    expect(capped.refCount).toBe(50);
    expect(capped.limitsApplied.maxRefs).toBe(50);
    expect(capped.omitted.refs).toBe(all.refCount - 50);
  });

  test('maxRefs keeps interactive elements first, and a kept ref works', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/shop/login') });
    const capped = await h.ok<Snap>('browser_snapshot', { ...s, maxRefs: 3 });
    expect(capped.refCount).toBe(3);
    const withRefs = capped.snapshot.split('\n').filter((line) => line.includes('@e'));
    for (const line of withRefs) expect(line).not.toMatch(/\[heading/);
    expect(capped.snapshot).toMatch(/\[heading level=1\] Sign in/);
    const ref = /@e\d+/.exec(withRefs[0] ?? '')?.[0];
    expect(ref).toBeDefined();
    await h.ok('browser_hover', { ...s, ref });
  });

  test('includeRefs: false writes no refs', async () => {
    const none = await h.ok<Snap>('browser_snapshot', { ...s, includeRefs: false });
    expect(none.refCount).toBe(0);
    expect(none.snapshot).not.toContain('@e');
    expect(none.snapshot).toContain('Sign in');
    expect(none.omitted.refs).toBeGreaterThan(0);
  });

  test('refuses bad values with INVALID_ARGUMENT naming the field; the session keeps working', async () => {
    for (const bad of [{ maxRefs: 0 }, { maxRefs: 101 }, { maxRefs: 2.5 }, { includeRefs: 'yes' }]) {
      const error = await h.err('browser_snapshot', { ...s, ...bad });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(JSON.stringify(error)).toContain(Object.keys(bad)[0]);
    }
    const both = await h.err('browser_snapshot', { ...s, includeRefs: false, maxRefs: 5 });
    expect(both.code).toBe('INVALID_ARGUMENT');
    expect(both.details?.field).toBe('maxRefs');
    const withCursor = await h.err('browser_snapshot', { ...s, cursor: 'abc', maxRefs: 5 });
    expect(withCursor.details?.field).toBe('maxRefs');
    expect((await h.ok<Snap>('browser_snapshot', s)).refCount).toBeGreaterThan(3);
  });
});
