import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const shows = (text: string): Promise<unknown> => h.ok('browser_wait', { ...s, text, timeoutMs: 5000 });

/** Opens a page and returns a lookup from accessible name to the ref the snapshot gives it. */
async function openWithRefs(path: string): Promise<(name: string) => string> {
  await h.ok('browser_navigate', { ...s, url: site.url(path) });
  const { snapshot } = await h.ok<{ snapshot: string }>('browser_snapshot', { ...s, interactiveOnly: true });
  return (name) => {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // `[button @e5] Name` or a compact row `[radio] @e10 Pro @e11 Team`.
    const match = new RegExp(`@(e\\d+)(?:[^\\]\\n]*\\])? ${escaped}(?= @e|\\n|$)`).exec(snapshot);
    if (!match?.[1]) throw new Error(`no ref for ${name} in:\n${snapshot}`);
    return `@${match[1]}`;
  };
}

describe('every target rule works with snapshot refs', () => {
  test('clicks, double-clicks, hovers and focuses by ref', async () => {
    const ref = await openWithRefs('/actions/buttons');
    await h.ok('browser_click', { ...s, ref: ref('Increment') });
    await shows('Count: 1');
    await h.ok('browser_double_click', { ...s, ref: ref('Increment') });
    await shows('Count: 3');
    await h.ok('browser_hover', { ...s, ref: ref('Increment') });
    await h.ok('browser_focus', { ...s, ref: ref('Focus me') });
    await shows('focused');
    await h.ok('browser_wait', { ...s, ref: ref('Delayed button'), state: 'enabled', timeoutMs: 5000 });
    expect((await h.err('browser_click', { ...s, ref: ref('Disabled button') })).details?.reason).toBe(
      'disabled',
    );
  });

  test('checks, selects, fills, types and presses by ref', async () => {
    let ref = await openWithRefs('/actions/checkboxes');
    expect(await h.ok('browser_check', { ...s, ref: ref('Newsletter') })).toMatchObject({ changed: true });
    expect(await h.ok('browser_check', { ...s, ref: ref('Newsletter') })).toMatchObject({ changed: false });
    await h.ok('browser_check', { ...s, ref: ref('Team') });
    await shows('newsletter=true terms=true plan=team');
    ref = await openWithRefs('/actions/select');
    await h.ok('browser_select_option', { ...s, ref: ref('Fruit'), label: 'Apple' });
    await shows('selected: apl');
    ref = await openWithRefs('/actions/keyboard');
    await h.ok('browser_fill', { ...s, ref: ref('Key log input'), value: 'by ref' });
    await h.ok('browser_press', { ...s, ref: ref('Key log input'), key: 'Enter' });
    await shows('submitted: by ref');
    await h.ok('browser_type', { ...s, ref: ref('Uppercase input'), text: 'xy' });
    await shows('Upper: XY');
  });

  test('scrolls by ref', async () => {
    const ref = await openWithRefs('/actions/scroll');
    expect(await h.ok('browser_scroll', { ...s, ref: ref('Scrollable list'), deltaY: 80 })).toMatchObject({
      container: 'element',
      scrollY: 80,
    });
    await h.ok('browser_scroll_into_view', { ...s, ref: ref('Bottom button') });
    await h.ok('browser_click', { ...s, ref: ref('Bottom button') });
    await shows('bottom clicked');
  });

  test('acts three frames deep across origins by ref', async () => {
    const ref = await openWithRefs('/actions/iframe-chain?cross=1');
    await h.ok('browser_fill', { ...s, ref: ref('Deep input'), value: 'x' });
    await h.ok('browser_click', { ...s, ref: ref('Deep button') });
    const frame = { kind: 'iframe', chain: [{ css: 'iframe' }, { css: 'iframe' }] };
    await h.ok('browser_wait', { ...s, locator: { text: 'deep clicked', frame }, timeoutMs: 5000 });
  });

  test('uses a ref as the action_and_wait target, and a ref goes stale after navigation', async () => {
    const ref = await openWithRefs('/actions/nav');
    const link = ref('Go to target page');
    const result = await h.ok<{ event: { url: string } }>('browser_action_and_wait', {
      ...s,
      target: { ref: link },
      waitFor: { kind: 'navigation' },
    });
    expect(result.event.url).toBe(site.url('/actions/nav-target'));
    const stale = await h.err('browser_click', { ...s, ref: link });
    expect(stale.code).toBe('STALE_ELEMENT_REFERENCE');
    // A stale ref satisfies "detached" at once, and fails other states loudly.
    await h.ok('browser_wait', { ...s, ref: link, state: 'detached' });
    expect((await h.err('browser_wait', { ...s, ref: link, state: 'visible' })).code).toBe(
      'STALE_ELEMENT_REFERENCE',
    );
  });

  test('returns a fresh interactive snapshot in the same call when asked', async () => {
    const ref = await openWithRefs('/actions/covered');
    const result = await h.call('browser_click', { ...s, ref: ref('Accept cookies'), includeSnapshot: true });
    const structured = result.structuredContent as { completed: boolean; snapshot: string };
    expect(structured.completed).toBe(true);
    expect(structured.snapshot).toMatch(/\[button @e\d+\] Buy now/);
    expect(structured.snapshot).not.toContain('Accept cookies');
    // The text block carries the snapshot as plain lines, not JSON-escaped.
    expect(textOf(result).split('\n').slice(1).join('\n')).toBe(structured.snapshot);
  });
});
