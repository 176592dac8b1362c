// What every contender does, written once: the checkout's data, the Playwright script used in code
// mode (the same text for BrowserMesh's browser_run, @playwright/mcp's browser_run_code_unsafe and
// playwright-core itself), and the checks that a flow really reached its goal.

export const CHECKOUT = {
  query: 'water',
  product: 'Water Bottle',
  fields: [
    ['Full name', 'Ada Lovelace'],
    ['Email', 'ada@example.com'],
    ['Address', '12 Analytical Row'],
    ['City', 'Berlin'],
    ['Postal code', '10115'],
  ],
  country: 'DE',
  countryLabel: 'Germany',
  shipping: 'Express',
  terms: 'I accept the terms',
};

/** The order number on a confirmation page's text, or undefined when the flow did not get there. */
export function orderNumberIn(text) {
  if (!/Thank you for your order/.test(text)) return undefined;
  return /ORD-\d+/.exec(text)?.[0];
}

/** Throws unless the text shows a placed order; returns the order number. */
export function expectOrder(contender, text) {
  const order = orderNumberIn(text);
  if (!order) throw new Error(`${contender}: the checkout did not reach the confirmation page`);
  return order;
}

/**
 * The checkout as the body of an async function over a Playwright `page`, with the fixture's
 * origin inlined (code-mode scripts get no globals). It returns only the confirmation: that is what
 * code mode is for. Every member used is in the subset BrowserMesh's code mode supports.
 */
export function checkoutScriptBody(origin) {
  const fill = CHECKOUT.fields
    .map(([label, value]) => `await page.getByLabel(${q(label)}, { exact: true }).fill(${q(value)});`)
    .join('\n');
  return `await page.goto(${q(`${origin}/shop/`)});
await page.getByRole('searchbox', { name: 'Search' }).fill(${q(CHECKOUT.query)});
await page.getByRole('button', { name: 'Search' }).click();
await page.waitForURL('**/shop/search**');
await page.getByRole('link', { name: ${q(CHECKOUT.product)} }).click();
await page.waitForURL('**/shop/product/**');
await page.getByRole('button', { name: 'Add to cart' }).click();
await page.waitForURL('**/shop/product/**added=**');
await page.getByRole('link', { name: 'Cart (1)' }).click();
await page.waitForURL('**/shop/cart');
await page.getByRole('link', { name: 'Checkout' }).click();
await page.waitForURL('**/shop/checkout');
${fill}
await page.getByLabel('Country').selectOption(${q(CHECKOUT.country)});
await page.getByLabel(${q(CHECKOUT.shipping)}).check();
await page.getByLabel(${q(CHECKOUT.terms)}).check();
await page.getByRole('button', { name: 'Place order' }).click();
await page.waitForURL('**/shop/confirmation/**');
const heading = await page.getByRole('heading', { level: 1 }).textContent();
const order = await page.locator('#order-number').textContent();
return heading + ' ' + order;`;
}

/** Playwright's own `async (page) => { … }` form of the same script (@playwright/mcp, playwright-core). */
export function checkoutFunctionSource(origin) {
  return `async (page) => {\n${checkoutScriptBody(origin)}\n}`;
}

const q = (text) => `'${String(text).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * A page for the late-content wait: like the fixture's /actions/late, but the page stamps the
 * moment (Date.now(), same machine clock as the harness) the content entered the DOM, so "seen
 * within X ms of its appearance" is measured rather than estimated.
 */
export function registerBenchRoutes(fixture) {
  fixture.route('/bench/late', (req, res) => {
    const ms = Math.min(
      60_000,
      Math.max(0, Number(new URL(req.url ?? '/', fixture.origin).searchParams.get('ms')) || 1500),
    );
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench: late content</title></head>
<body><main><h1>Late content</h1><p id="late-waiting">Content arrives after ${ms} ms.</p><div id="late-root"></div>
<script>setTimeout(() => {
  const at = Date.now();
  document.getElementById('late-root').innerHTML = '<p id="late-content">Late content ready</p><p id="appeared-at">appeared-at ' + at + '</p>';
  document.getElementById('late-waiting').remove();
}, ${ms});</script></main></body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  });
}

export const LATE_TEXT = 'Late content ready';

/** The appearance stamp the /bench/late page wrote, read back from any text view of it. */
export function appearedAtIn(text) {
  const match = /appeared-at (\d{12,})/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/**
 * The checkout as `browser_export_test` wrote it after the per-step locator flow (role locators, the
 * assertion from reading the confirmation), with the fixture's origin put back in: what
 * `browser_replay` runs with no model in the loop.
 */
export function exportedCheckoutSpec(origin) {
  const o = (path) => q(`${origin}${path}`);
  return `import { test, expect } from '@playwright/test';

test('checkout', async ({ page }) => {
  await page.goto(${o('/shop/')});
  await page.getByRole('searchbox', { name: 'Search' }).fill('water');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'Water Bottle' }).click();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('link', { name: 'Cart (1)' }).click();
  await page.getByRole('link', { name: 'Checkout' }).click();
  await page.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
  await page.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
  await page.getByRole('textbox', { name: 'Address' }).fill('12 Analytical Row');
  await page.getByRole('textbox', { name: 'City' }).fill('Berlin');
  await page.getByRole('textbox', { name: 'Postal code' }).fill('10115');
  await page.getByRole('combobox', { name: 'Country' }).selectOption('DE');
  await page.getByRole('radio', { name: 'Express' }).click();
  await page.getByRole('checkbox', { name: 'I accept the terms' }).click();
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.locator('body')).toContainText('Thank you for your order');
});
`;
}
