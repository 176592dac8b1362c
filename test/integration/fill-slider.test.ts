/**
 * browser_fill on a real slider library (noUiSlider, served by the fixture site): its handles are
 * role="slider" divs, so fill moves them with Home/End/PageUp/PageDown/arrow keys until
 * aria-valuenow is the value, and says the value reached. A value between two steps or outside the
 * range is INVALID_ARGUMENT naming the nearest value (details.nearest); a value that is not a number
 * is INVALID_ARGUMENT too. The session works after each; code mode's fill moves it the same way.
 */
import { describe, expect, test } from './support/fixtures.js';

const price = { locator: { role: 'slider', name: 'Price' } };
const budget = { locator: { role: 'slider', name: 'Budget' } };

describe('browser_fill on a noUiSlider', () => {
  test('moves the handle with keys to the value and reports it; refuses what it cannot reach', async ({
    harness: h,
    session: s,
    site,
  }) => {
    await h.ok('browser_navigate', { ...s, url: site.url('/real-slider/') });
    await h.ok('browser_wait', { ...s, text: 'price: 20', timeoutMs: 15_000 });

    expect(await h.ok('browser_fill', { ...s, ...price, value: '65' })).toMatchObject({ value: '65' });
    await h.ok('browser_wait', { ...s, text: 'price: 65', timeoutMs: 10_000 });
    expect(await h.ok('browser_fill', { ...s, ...price, value: '100' })).toMatchObject({ value: '100' });
    expect(await h.ok('browser_fill', { ...s, ...price, value: '0' })).toMatchObject({ value: '0' });
    await h.ok('browser_wait', { ...s, text: 'price: 0', timeoutMs: 10_000 });

    // A long way: the page keys do the bulk, the arrows finish.
    expect(await h.ok('browser_fill', { ...s, ...budget, value: '873' })).toMatchObject({ value: '873' });
    await h.ok('browser_wait', { ...s, text: 'budget: 873', timeoutMs: 10_000 });

    // Between two steps: the handle stays on the nearer one, and the error names it.
    await h.ok('browser_fill', { ...s, ...price, value: '20' });
    const between = await h.err('browser_fill', { ...s, ...price, value: '27' });
    expect(between.code).toBe('INVALID_ARGUMENT');
    expect(between.details).toMatchObject({ field: 'value', reason: 'value_unreachable', nearest: 25 });
    await h.ok('browser_wait', { ...s, text: 'price: 25', timeoutMs: 10_000 });

    const above = await h.err('browser_fill', { ...s, ...price, value: '150' });
    expect(above.details).toMatchObject({ reason: 'value_unreachable', nearest: 100 });
    const notNumber = await h.err('browser_fill', { ...s, ...price, value: 'cheap' });
    expect(notNumber).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'value' } });
    // Nothing moved on those two refusals.
    await h.ok('browser_wait', { ...s, text: 'price: 25', timeoutMs: 10_000 });

    const code = await h.ok<{ value: [string | null, string | null, string] }>('browser_run', {
      ...s,
      timeoutMs: 60_000,
      code: `const handle = page.getByRole('slider', { name: 'Price' });
        const reached = await handle.fill('45');
        let refused = '';
        try { await handle.fill('46'); } catch (e) { refused = e.code; }
        return [reached, await handle.getAttribute('aria-valuenow'), refused];`,
    });
    expect(code.value).toEqual(['45', '45.0', 'INVALID_ARGUMENT']);
  });
});
