import { describe, expect, it } from 'vitest';
import { complete, parseSpec } from './spec-script.js';
import { findLocator, locatorCall, unquote } from './spec-locator.js';
import { likeness } from './heal.js';

const SPEC = `import { test, expect } from '@playwright/test';

function secretFromEnv(name: string): string {
  const value = process.env[name];
  return value;
}

test('checkout', async ({ page }) => {
  const secrets = { EMAIL: secretFromEnv('EMAIL'), PIN: secretFromEnv('PIN') };
  await page.goto('http://127.0.0.1:1/a');
  // a comment
  await page
    .getByRole('button', { name: 'Pay (now)' })
    .click();
  await page.getByLabel('Email').fill(secrets.EMAIL); // not unique when recorded
});
`;

describe('parseSpec', () => {
  it('reads the test body as statements (multi-line ones joined) and the secrets it reads', () => {
    const script = parseSpec(SPEC);
    expect(script.secrets).toEqual(['EMAIL', 'PIN']);
    expect(script.statements.map((s) => [s.step, s.line, s.code])).toEqual([
      [1, 10, "await page.goto('http://127.0.0.1:1/a');"],
      [2, 12, "await page .getByRole('button', { name: 'Pay (now)' }) .click();"],
      [3, 15, "await page.getByLabel('Email').fill(secrets.EMAIL); // not unique when recorded"],
    ]);
  });

  it('refuses what needs state between statements, with the line, and an empty spec', () => {
    const popup = "test('t', async ({ page }) => {\n  const p = page.waitForEvent('popup');\n});\n";
    expect(() => parseSpec(popup)).toThrow(/line 2 declares a variable/);
    expect(() => parseSpec("test('t', async ({ page, context }) => {\n});\n")).toThrow(/fixture/);
    expect(() => parseSpec('// nothing')).toThrow(/no statement/);
    expect(() => parseSpec("await page.goto('x'")).toThrow(/not complete/);
  });

  it('knows a whole statement: brackets closed outside strings, a trailing comment allowed', () => {
    expect(complete("await page.getByText('a);(').click();")).toBe(true);
    expect(complete("await page.getByText('it\\'s').click(); // note")).toBe(true);
    expect(complete('await page')).toBe(false);
  });
});

describe('spec locators', () => {
  it('reads back what the export writes, and writes it again', () => {
    for (const call of [
      "getByRole('button', { name: 'It\\'s \"done\"' })",
      "getByRole('textbox', { name: 'Email', exact: true })",
      "getByRole('main')",
      "getByLabel('Email', { exact: true })",
      "getByTestId('pay')",
      "locator('#id')",
    ]) {
      const found = findLocator(`await expect(page.${call}).toBeVisible();`);
      expect(found?.code).toBe(call);
      expect(locatorCall(found!.locator)).toBe(call);
    }
    expect(unquote("'a\\u2028b'")).toBe('a\u2028b');
    expect(findLocator('await page.goto(url);')).toBeUndefined();
  });

  it('ranks a renamed name close and an unrelated one far', () => {
    expect(likeness('Place order', 'Place your order')).toBeGreaterThan(0.5);
    expect(likeness('Full name', 'Your name')).toBeGreaterThan(0.5);
    expect(likeness('Place order', 'Save for later')).toBeLessThan(0.5);
    expect(likeness('', 'x')).toBe(0);
  });
});
