import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const open = (path: string): Promise<unknown> => h.ok('browser_navigate', { ...s, url: site.url(path) });
const role = (r: string, name: string): Record<string, unknown> => ({ locator: { role: r, name } });

/** Waits (event-driven, bounded) until the page shows `text`; returns nothing, fails on timeout. */
const shows = (text: string): Promise<unknown> => h.ok('browser_wait', { ...s, text, timeoutMs: 5000 });

describe('pointer actions by locator', () => {
  test('clicks, double-clicks, hovers and focuses', async () => {
    await open('/actions/buttons');
    expect(await h.ok('browser_click', { ...s, ...role('button', 'Increment') })).toEqual({
      operationId: expect.any(String),
      completed: true,
      // The handler changes the count synchronously: nothing was left to wait for, only the change.
      settled: { mutations: expect.any(Number), waitedMs: expect.any(Number) },
    });
    await h.ok('browser_click', { ...s, ...role('button', 'Increment'), clickCount: 1 });
    await shows('Count: 2');
    await h.ok('browser_double_click', { ...s, locator: { text: 'Double-click me' } });
    await shows('double clicked');
    await h.ok('browser_hover', { ...s, locator: { text: 'Hover me' } });
    await shows('hovered');
    await h.ok('browser_focus', { ...s, locator: { label: 'Focus me' } });
    await shows('focused');
  });

  test('waits briefly for a button that becomes enabled, and refuses a disabled one', async () => {
    await open('/actions/buttons');
    await h.ok('browser_click', { ...s, ...role('button', 'Delayed button') });
    await shows('delayed clicked');
    const error = await h.err('browser_click', { ...s, ...role('button', 'Disabled button') });
    expect(error.code).toBe('ELEMENT_NOT_INTERACTABLE');
    expect(error.details?.reason).toBe('disabled');
  });

  test('returns the new URL when a click navigates', async () => {
    await open('/actions/nav');
    const result = await h.ok<{ url?: string }>('browser_click', {
      ...s,
      ...role('link', 'Go to target page'),
    });
    expect(result.url).toBe(site.url('/actions/nav-target'));
    const stay = await h.ok<{ url?: string }>('browser_click', {
      ...s,
      ...role('link', 'Back to navigation'),
    });
    expect(stay.url).toBe(site.url('/actions/nav'));
    const noNav = await h.ok<{ url?: string }>('browser_click', { ...s, ...role('button', 'Fetch data') });
    expect(noNav.url).toBeUndefined();
  });

  test('returns once the document a click led to is parsed, so the next read sees all of it', async () => {
    // /slow-body commits at once and sends the end of its body 600 ms later.
    await open('/');
    const result = await h.ok<{ url?: string }>('browser_click', {
      ...s,
      ...role('link', '/slow-body?ms=600'),
    });
    expect(result.url).toBe(site.url('/slow-body?ms=600'));
    const read = await h.ok<{ text: string }>('browser_visible_text', s);
    expect(read.text).toContain('Body finished');
  });
});

describe('locator failures', () => {
  test('reports ambiguity at once with the count', async () => {
    await open('/actions/ambiguous');
    const started = Date.now();
    const error = await h.err('browser_click', { ...s, ...role('button', 'Save') });
    expect(error.code).toBe('LOCATOR_AMBIGUOUS');
    expect(error.details?.count).toBe(2);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('reports not found quickly (not a full timeout) with what was searched', async () => {
    await open('/actions/buttons');
    const started = Date.now();
    const error = await h.err('browser_click', {
      ...s,
      ...role('button', 'No such button'),
      timeoutMs: 20_000,
    });
    expect(error.code).toBe('ELEMENT_NOT_FOUND');
    expect(error.message).toContain('role=button name="No such button"');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('finds an element that appears within the short window', async () => {
    await open('/actions/late?ms=400');
    await h.ok('browser_click', { ...s, ...role('button', 'Late button') });
    await shows('late clicked');
  });

  test('names the covering element instead of clicking it', async () => {
    await open('/actions/covered');
    const error = await h.err('browser_click', { ...s, ...role('button', 'Buy now') });
    expect(error.code).toBe('ELEMENT_NOT_INTERACTABLE');
    expect(error.details?.coveredBy).toContain('#cookie-banner');
    await h.ok('browser_click', { ...s, ...role('button', 'Accept cookies') });
    await h.ok('browser_click', { ...s, ...role('button', 'Buy now') });
    await shows('bought');
  });
});

describe('checkboxes, selects and keys', () => {
  test('check and uncheck are idempotent', async () => {
    await open('/actions/checkboxes');
    expect(await h.ok('browser_check', { ...s, locator: { label: 'Newsletter' } })).toMatchObject({
      checked: true,
      changed: true,
    });
    expect(await h.ok('browser_check', { ...s, locator: { label: 'Newsletter' } })).toMatchObject({
      checked: true,
      changed: false,
    });
    expect(await h.ok('browser_uncheck', { ...s, locator: { label: 'Accept terms' } })).toMatchObject({
      checked: false,
      changed: true,
    });
    expect(await h.ok('browser_uncheck', { ...s, locator: { label: 'Accept terms' } })).toMatchObject({
      changed: false,
    });
    await h.ok('browser_check', { ...s, ...role('radio', 'Pro') });
    // Its accessible name includes the CSS ::before box glyph, hence a partial match.
    await h.ok('browser_check', {
      ...s,
      locator: { role: 'checkbox', name: 'Custom checkbox', exact: false },
    });
    await shows('newsletter=true terms=false plan=pro custom=true');
    const radio = await h.err('browser_uncheck', { ...s, ...role('radio', 'Pro') });
    expect(radio.code).toBe('ELEMENT_NOT_INTERACTABLE');
  });

  test('selects by value, label and index, and several in a multiple select', async () => {
    await open('/actions/select');
    const fruit = { locator: { label: 'Fruit' } };
    expect(await h.ok('browser_select_option', { ...s, ...fruit, value: 'ban' })).toMatchObject({
      selected: ['ban'],
    });
    await shows('selected: ban (label: Banana, index: 2)');
    await h.ok('browser_select_option', { ...s, ...fruit, label: 'Dates' });
    await shows('selected: Date (label: Dates, index: 4)');
    await h.ok('browser_select_option', { ...s, ...fruit, index: 3 });
    await shows('selected: cherry');
    await h.ok('browser_select_option', { ...s, locator: { label: 'Colors' }, value: ['r', 'b'] });
    await shows('colors: r,b');
    // A value no option has is matched against the labels, as Playwright's selectOption does.
    expect(await h.ok('browser_select_option', { ...s, ...fruit, value: 'Banana' })).toMatchObject({
      selected: ['ban'],
    });
    const none = await h.err('browser_select_option', { ...s, ...fruit, value: 'nope' });
    expect(none).toMatchObject({ code: 'ELEMENT_NOT_FOUND', details: { field: 'value', position: 0 } });
    expect(none.message).toContain('value or label');
    // It says which options there are, so the next call can pick one.
    expect(none.message).toContain('its options: ');
    expect(none.message).toContain('"Banana"');
    expect(none.details?.options).toEqual(expect.arrayContaining(['Banana', 'Dates']));
    expect((await h.err('browser_select_option', { ...s, ...fruit, value: 'kiwi' })).details?.reason).toBe(
      'option_disabled',
    );
    expect((await h.err('browser_select_option', { ...s, ...fruit, value: 'ban', index: 1 })).code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  test('fills, types key by key and presses keys and combinations', async () => {
    await open('/actions/keyboard');
    await h.ok('browser_fill', { ...s, locator: { label: 'Key log input' }, value: 'hello' });
    await h.ok('browser_press', { ...s, locator: { label: 'Key log input' }, key: 'Control+a' });
    await shows('select all');
    await h.ok('browser_type', { ...s, locator: { label: 'Uppercase input' }, text: 'abc d' });
    await shows('Upper: ABC D');
    await h.ok('browser_type', { ...s, text: 'e', delayMs: 20 });
    await shows('Upper: ABC DE');
    await h.ok('browser_fill', { ...s, locator: { label: 'Key log input' }, value: 'done' });
    await h.ok('browser_press', { ...s, locator: { label: 'Key log input' }, key: 'Enter' });
    await shows('submitted: done');
  });
});

describe('scrolling and drag and drop', () => {
  test('scrolls the page and an element, and scrolls elements into view', async () => {
    await open('/actions/scroll');
    expect(await h.ok('browser_scroll', { ...s, deltaY: 500 })).toMatchObject({
      scrollY: 500,
      container: 'page',
    });
    await shows('Window scrollY: 500');
    expect(
      await h.ok('browser_scroll', { ...s, locator: { label: 'Scrollable list' }, deltaY: 120 }),
    ).toMatchObject({ scrollY: 120, container: 'element' });
    await shows('Inner scrollTop: 120');
    await h.ok('browser_scroll_into_view', { ...s, ...role('button', 'Bottom button') });
    await h.ok('browser_click', { ...s, ...role('button', 'Bottom button') });
    await shows('bottom clicked');
  });

  test('drags with HTML5 drag and drop and with a mouse-driven list', async () => {
    await open('/actions/drag');
    await h.ok('browser_drag_and_drop', {
      ...s,
      source: { locator: { text: 'Item 2' } },
      target: { locator: { label: 'Drop zone' } },
    });
    await shows('dropped: item-2');
    await h.ok('browser_drag_and_drop', {
      ...s,
      source: { locator: { text: 'Alpha' } },
      target: { locator: { text: 'Charlie' } },
    });
    await shows('moved alpha onto charlie');
  });
});

describe('iframe chains', () => {
  for (const cross of [false, true]) {
    test(`clicks and fills three frames deep${cross ? ' across origins' : ''}`, async () => {
      await open(`/actions/iframe-chain${cross ? '?cross=1' : ''}`);
      const frame = { kind: 'iframe', chain: [{ css: 'iframe' }, { role: 'iframe', name: 'Level 3 frame' }] };
      await h.ok('browser_fill', { ...s, locator: { label: 'Deep input', frame }, value: 'deep' });
      await h.ok('browser_click', { ...s, locator: { role: 'button', name: 'Deep button', frame } });
      await h.ok('browser_wait', { ...s, locator: { text: 'deep clicked', frame }, timeoutMs: 5000 });
      const missing = await h.err('browser_click', {
        ...s,
        locator: {
          role: 'button',
          name: 'Deep button',
          frame: { kind: 'iframe', chain: [{ css: 'iframe.nope' }] },
        },
      });
      expect(missing.code).toBe('ELEMENT_NOT_FOUND');
      expect(missing.details?.field).toBe('locator.frame.chain.0');
    });
  }
});

describe('bad inputs name the field', () => {
  test.each([
    ['both ref and locator', 'browser_click', { ref: '@e1', locator: { css: 'button' } }, 'locator'],
    ['neither ref nor locator', 'browser_click', {}, 'locator'],
    ['two strategies', 'browser_click', { locator: { css: 'a', text: 'b' } }, 'locator'],
    [
      'a frame chain of 6',
      'browser_click',
      {
        locator: {
          css: 'a',
          frame: { kind: 'iframe', chain: Array.from({ length: 6 }, () => ({ css: 'iframe' })) },
        },
      },
      'locator.frame.chain',
    ],
    ['deltaY out of range', 'browser_scroll', { deltaY: 1_000_001 }, 'deltaY'],
    ['a fractional delta', 'browser_scroll', { deltaX: 1.5 }, 'deltaX'],
    ['an unknown key', 'browser_press', { key: 'Entr' }, 'key'],
    ['an unknown modifier', 'browser_press', { key: 'Hyper+a' }, 'key'],
    ['an unknown role', 'browser_click', { locator: { role: 'buton', name: 'x' } }, 'locator.role'],
    [
      'css chaining into other engines',
      'browser_click',
      { locator: { css: 'div >> internal:role=button' } },
      'locator.css',
    ],
    [
      'drag source with both',
      'browser_drag_and_drop',
      { source: { ref: '@e1', locator: { css: 'a' } }, target: { locator: { css: 'b' } } },
      'source',
    ],
  ])('%s', async (_label, tool, args, field) => {
    await open('/actions/buttons');
    const error = await h.err(tool, { ...s, ...args });
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.details?.field).toBe(field);
  });
});
