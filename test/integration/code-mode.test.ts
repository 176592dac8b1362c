import { describe, expect, test } from './support/fixtures.js';
import { textOf } from '../helpers/harness.js';

/** browser_run through the MCP client on real Chromium: the shop checkout in one call, both modes. */

interface ActionsOut {
  completed: number;
  total: number;
  url: string;
  results?: Array<{ index: number; action: string; snapshot?: string; selected?: string[] }>;
  failed?: { index: number; action: string; error: { code: string; message: string } };
}

const role = (r: string, name: string): { locator: { role: string; name: string } } => ({
  locator: { role: r, name },
});

describe('browser_run actions', () => {
  test('runs the whole shop checkout in one call', async ({ site, harness: h }) => {
    const s = await h.session();
    const actions = [
      { action: 'goto', url: site.url('/shop/') },
      { action: 'fill', ...role('searchbox', 'Search'), value: 'backpack' },
      { action: 'click', ...role('button', 'Search') },
      { action: 'click', ...role('link', 'Mesh Backpack') },
      { action: 'click', ...role('button', 'Add to cart') },
      { action: 'goto', url: site.url('/shop/cart') },
      { action: 'click', ...role('link', 'Checkout') },
      { action: 'fill', locator: { label: 'Full name' }, value: 'Ada Lovelace' },
      { action: 'fill', locator: { label: 'Email' }, value: 'ada@example.com' },
      { action: 'fill', locator: { label: 'Address' }, value: '12 Analytical St' },
      { action: 'fill', locator: { label: 'City' }, value: 'Berlin' },
      { action: 'fill', locator: { label: 'Postal code' }, value: '10115' },
      { action: 'select', locator: { label: 'Country' }, value: 'DE' },
      { action: 'check', ...role('radio', 'Express') },
      { action: 'check', ...role('checkbox', 'I accept the terms') },
      { action: 'click', ...role('button', 'Place order') },
      { action: 'wait', url: '**/shop/confirmation/*' },
      { action: 'snapshot' },
    ];
    const out = await h.ok<ActionsOut>('browser_run', { ...s, actions, timeoutMs: 45_000 });
    expect(out.failed).toBeUndefined();
    expect(out.completed).toBe(actions.length);
    expect(out.total).toBe(actions.length);
    expect(out.url).toMatch(/\/shop\/confirmation\/ORD-/);
    expect(out.results?.find((r) => r.action === 'select')?.selected).toEqual(['DE']);
    expect(out.results?.at(-1)?.snapshot).toContain('Thank you for your order');
  });

  test('stops at the failing step and keeps the completed count', async ({ site, harness: h }) => {
    const s = await h.session();
    const out = await h.ok<ActionsOut>('browser_run', {
      ...s,
      actions: [
        { action: 'goto', url: site.url('/quiet') },
        { action: 'click', ...role('button', 'Nothing like this') },
        { action: 'snapshot' },
      ],
    });
    expect(out.completed).toBe(1);
    expect(out.total).toBe(3);
    expect(out.url).toBe(site.url('/quiet'));
    expect(out.failed).toMatchObject({ index: 1, action: 'click', error: { code: 'ELEMENT_NOT_FOUND' } });
  });

  test('keeps the completed count when the deadline ends the batch', async ({ site, harness: h }) => {
    const s = await h.session();
    const out = await h.ok<ActionsOut>('browser_run', {
      ...s,
      timeoutMs: 3000,
      actions: [
        { action: 'goto', url: site.url('/quiet') },
        { action: 'wait', text: 'never appears on this page' },
      ],
    });
    expect(out.completed).toBe(1);
    expect(out.failed).toMatchObject({ index: 1, action: 'wait', error: { code: 'OPERATION_TIMEOUT' } });
  });

  test('refuses bad batches before running anything, naming the field', async ({ site, harness: h }) => {
    const s = await h.session();
    const both = await h.err('browser_run', { ...s, code: 'return 1', actions: [{ action: 'snapshot' }] });
    expect(both.code).toBe('INVALID_ARGUMENT');
    expect(both.details?.field).toBe('actions');
    const neither = await h.err('browser_run', { ...s });
    expect(neither.details?.field).toBe('code');
    const noTarget = await h.err('browser_run', { ...s, actions: [{ action: 'click' }] });
    expect(noTarget.details?.field).toBe('actions.0.locator');
    const twoOptions = await h.err('browser_run', {
      ...s,
      actions: [{ action: 'select', locator: { label: 'Country' }, value: 'DE', label: 'Germany' }],
    });
    expect(twoOptions.details?.field).toBe('actions.0.value');
    const stray = await h.err('browser_run', {
      ...s,
      actions: [{ action: 'snapshot' }, { action: 'goto', url: site.url('/quiet'), key: 'Enter' }],
    });
    expect(stray.details?.field).toBe('actions.1.key');
    const badUrl = await h.ok<ActionsOut>('browser_run', {
      ...s,
      actions: [{ action: 'goto', url: 'file:///etc/passwd' }],
    });
    expect(badUrl.failed?.error.code).toBe('INVALID_ARGUMENT');
  });
});

const CHECKOUT_SCRIPT = (origin: string): string => `
  await page.goto('${origin}/shop/');
  await page.getByRole('searchbox', { name: 'Search' }).fill('backpack');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'Mesh Backpack' }).click();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.goto('${origin}/shop/cart');
  await page.getByRole('link', { name: 'Checkout' }).click();
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Address').fill('12 Analytical St');
  await page.getByLabel('City').fill('Berlin');
  await page.getByLabel('Postal code').fill('10115');
  const picked = await page.selectOption('#country', 'Germany');
  await page.getByRole('radio', { name: 'Express' }).check();
  await page.getByLabel('I accept the terms').check();
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL('**/shop/confirmation/*');
  console.log('placed', picked.join(','));
  return { order: await page.textContent('#order-number'), title: await page.title(), url: await page.url() };
`;

describe('browser_run code', () => {
  test('runs the whole shop checkout as one script; only the return value and logs come back', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    const result = await h.call('browser_run', {
      ...s,
      code: CHECKOUT_SCRIPT(site.origin),
      timeoutMs: 45_000,
    });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as {
      value: { order: string; title: string; url: string };
      logs: string[];
      operations: number;
    };
    expect(out.value.order).toMatch(/^ORD-/);
    expect(out.value.title).toContain(out.value.order);
    expect(out.value.url).toContain('/shop/confirmation/');
    expect(out.logs).toEqual(['placed DE']);
    expect(out.operations).toBe(20);
    const text = textOf(result);
    expect(text.split('\n')[0]).toBe(JSON.stringify(out.value));
    expect(text).toContain('placed DE');
    expect(text).not.toContain('getByLabel');
  });

  test('reports a failing page call as a script error with the line and the step', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    const code = `await page.goto('${site.origin}/quiet');\nconsole.log('before');\nawait page.click('#missing');\nreturn 1;`;
    const error = await h.err('browser_run', { ...s, code });
    expect(error.code).toBe('ELEMENT_NOT_FOUND');
    expect(error.details).toMatchObject({
      kind: 'host',
      line: 3,
      stepIndex: 1,
      stepOp: 'click',
      hostCode: 'ELEMENT_NOT_FOUND',
    });
    expect(error.details?.logs).toEqual(['before']);
    // The session is still usable.
    expect(await h.ok('browser_get_url', s)).toMatchObject({ url: site.url('/quiet') });
  });
});
