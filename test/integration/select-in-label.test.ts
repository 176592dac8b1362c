/**
 * A `<select>` inside its own `<label>`: `{ label }` finds it by the label's own words (the options'
 * texts are part of the label's text content, not of its name), on MCP and in code mode.
 */
import { describe, expect, test } from './support/fixtures.js';

const PAGE = `<!doctype html><title>plans</title>
<label>Plan <select id="plan"><option value="f">Free</option><option value="p">Pro</option></select></label>
<label>Seats <input id="seats" type="number" value="1"></label>
<label><input id="terms" type="checkbox"> I agree</label>
<output id="out"></output>
<script>plan.addEventListener('change', () => (out.textContent = plan.value));</script>`;

describe('a control inside its label', () => {
  test.beforeAll(({ site }) => {
    site.route('/select-in-label', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
    });
  });

  test('is found by { label } for select, input and checkbox', async ({ site, harness, session }) => {
    await harness.ok('browser_navigate', { ...session, url: site.url('/select-in-label') });
    await harness.ok('browser_select_option', { ...session, locator: { label: 'Plan' }, value: 'Pro' });
    await harness.ok('browser_fill', { ...session, locator: { label: 'Seats' }, value: '3' });
    await harness.ok('browser_check', { ...session, locator: { label: 'I agree' } });
    const read = await harness.ok<{ value: unknown }>('browser_run', {
      ...session,
      code: `return [await page.getByLabel('Plan').inputValue(), await page.locator('#out').textContent(),
        await page.getByLabel('Seats').inputValue(), await page.getByLabel('I agree').isChecked()];`,
    });
    expect(read.value).toEqual(['p', 'p', '3', true]);
  });

  test("is found by Playwright's engine too (a shadow root in the label leaves it unsure in the page)", async ({
    site,
    harness,
    session,
  }) => {
    site.route('/select-in-label-shadow', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `${PAGE}<script>const host = document.querySelector('label').appendChild(document.createElement('span'));
        host.attachShadow({ mode: 'open' });</script>`,
      );
    });
    await harness.ok('browser_navigate', { ...session, url: site.url('/select-in-label-shadow') });
    await harness.ok('browser_select_option', { ...session, locator: { label: 'Plan' }, value: 'Pro' });
    const read = await harness.ok<{ value: unknown }>('browser_run', {
      ...session,
      code: `return await page.locator('#out').textContent();`,
    });
    expect(read.value).toBe('p');
    // Another label's words do not reach it.
    expect(
      await harness.err('browser_select_option', {
        ...session,
        locator: { label: 'Pla' },
        value: 'Pro',
        // Not a timeout: the short appear window ends it, well inside a long deadline (load-proof).
        timeoutMs: 30_000,
      }),
    ).toMatchObject({ code: 'ELEMENT_NOT_FOUND' });
  });
});
