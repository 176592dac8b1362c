import { describe, expect, it } from 'vitest';
import type { LoggedStep, LoggedTarget } from '../journal/action-log.js';
import { ActionLog, toLoggedValue } from '../journal/action-log.js';
import { quote, urlPatternCode } from './export-code.js';
import { generateSpec } from './export-spec.js';

const button = (name: string, frames: string[] = []): LoggedTarget => ({
  frames,
  element: { by: 'role', role: 'button', name },
  css: 'button.buy',
  unique: true,
  secretField: false,
});

const spec = (steps: LoggedStep[], stateId: string | null = null): string =>
  generateSpec(steps, { language: 'ts', title: 't', stateId }).code;

describe('generateSpec', () => {
  it('writes frame chains, dialogs before their action, popups awaited, and no sleeps', () => {
    const code = spec([
      { step: 1, pageId: 'p1', kind: 'goto', url: 'http://127.0.0.1:1/a' },
      { step: 2, pageId: 'p1', kind: 'click', targets: [button('Pay', ['iframe[title="Pay"]'])] },
      { step: 3, pageId: 'p1', kind: 'click', targets: [button('Delete')], dialog: { accept: false } },
      { step: 4, pageId: 'p1', kind: 'click', targets: [button('Open')] },
      { step: 5, pageId: 'p2', kind: 'click', targets: [button('Child')], openedBy: 'p1' },
      { step: 6, pageId: 'p2', kind: 'waitUrl', urlPattern: '**/done*' },
    ]);
    expect(code).toContain(
      "await page.frameLocator('iframe[title=\"Pay\"]').getByRole('button', { name: 'Pay' }).click();",
    );
    expect(code).toContain(
      "page.once('dialog', (dialog) => void dialog.dismiss());\n  await page.getByRole('button', { name: 'Delete' }).click();",
    );
    expect(code).toContain(
      "const page1Promise = page.waitForEvent('popup');\n  await page.getByRole('button', { name: 'Open' }).click();\n  const page1 = await page1Promise;",
    );
    expect(code).toContain("await page1.getByRole('button', { name: 'Child' }).click();");
    expect(code).toContain("await expect(page1).toHaveURL(new RegExp('^.*/done[^/]*$'));");
    expect(code).not.toMatch(/waitForTimeout|sleep/);
  });

  it('starts from a saved state with test.use and a note, and opens non-popup pages from the context', () => {
    const code = spec(
      [
        { step: 1, pageId: 'p1', kind: 'goto', url: 'http://127.0.0.1:1/' },
        { step: 2, pageId: 'p2', kind: 'goto', url: 'http://127.0.0.1:1/b' },
      ],
      'buyer',
    );
    expect(code).toContain("test.use({ storageState: 'state.json' });");
    expect(code).toContain('--export-state buyer');
    expect(code).toContain(
      "async ({ page, context }) => {\n  await page.goto('http://127.0.0.1:1/');\n  const page1 = await context.newPage();",
    );
  });

  it('never writes a secret: references, configured values and secret fields become process.env names', () => {
    const secrets = { COUPON: 'abc-123' };
    expect(toLoggedValue(secrets, '{{secret:COUPON}}', false)).toEqual({ secret: 'COUPON' });
    expect(toLoggedValue(secrets, 'code abc-123', false)).toEqual({ secret: 'COUPON' });
    expect(toLoggedValue(secrets, 'hunter2', true)).toEqual({ secret: 'PASSWORD' });
    expect(toLoggedValue(secrets, 'plain', false)).toEqual({ value: 'plain' });
    expect(toLoggedValue(secrets, '{{secret:OTHER}}', true)).toEqual({ secret: 'OTHER' });
    const code = spec([{ step: 1, pageId: 'p', kind: 'fill', targets: [button('x')], secret: 'PASSWORD' }]);
    expect(code).toContain('.fill(secrets.PASSWORD);');
    expect(code).toContain("const secrets = { PASSWORD: secretFromEnv('PASSWORD') };");
    expect(code).not.toContain("?? ''");
  });

  it('quotes page text safely and converts glob URLs', () => {
    expect(quote('it\'s "x"\n\u2028')).toBe("'it\\'s \"x\"\\n\\u2028'");
    expect(urlPatternCode('http://a/b')).toBe("'http://a/b'");
    expect(urlPatternCode({ source: 'a+', flags: 'i' })).toBe("new RegExp('a+', 'i')");
  });
});

describe('ActionLog', () => {
  it('is a bounded ring that keeps step numbers, and records nothing when off', () => {
    const log = new ActionLog(2, null);
    for (let i = 0; i < 5; i++) log.add('p', { kind: 'reload' });
    expect(log.list().map((s) => s.step)).toEqual([4, 5]);
    expect(log.list(5).map((s) => s.step)).toEqual([5]);
    expect(log.recorded).toBe(5);
    const off = new ActionLog(0, null);
    off.add('p', { kind: 'reload' });
    expect(off.list()).toEqual([]);
  });
});
