import { describe, expect, it } from 'vitest';
import type { CodeModeBackend } from './backend.js';
import type { ElementSelector, SelectorBase, SelectorStep } from './facade-calls.js';
import type { FacadeCall, FacadeOp } from './facade-parse.js';
import { runScript } from './sandbox.js';

/** A backend that records every call and answers with the documented result shape. */
const RESULTS: Partial<Record<FacadeOp, unknown>> = {
  title: 'Title',
  url: 'https://shop.test/',
  textContent: 'text content',
  innerText: 'inner text',
  inputValue: 'input value',
  isVisible: true,
  isChecked: false,
  isEnabled: true,
  count: 3,
  allTextContents: ['a', 'b'],
  allInnerTexts: ['A'],
  getAttribute: '/href',
  snapshot: '- button "Save" [ref=@e5]',
  selectOption: ['b'],
};

function recorder(): { calls: FacadeCall[]; backend: CodeModeBackend } {
  const calls: FacadeCall[] = [];
  return {
    calls,
    backend: {
      invoke: (call) => {
        calls.push(call);
        return Promise.resolve(RESULTS[call.op] ?? null);
      },
    },
  };
}

async function record(code: string): Promise<{ calls: FacadeCall[]; value: unknown }> {
  const { calls, backend } = recorder();
  const result = await runScript(code, backend, {
    signal: new AbortController().signal,
    deadline: Date.now() + 10_000,
  });
  if (!result.ok) throw new Error(`script failed: ${JSON.stringify(result.error)}`);
  return { calls, value: result.value };
}

async function failure(code: string): Promise<{ message: string; calls: FacadeCall[] }> {
  const { calls, backend } = recorder();
  const result = await runScript(code, backend, {
    signal: new AbortController().signal,
    deadline: Date.now() + 10_000,
  });
  if (result.ok) throw new Error('script unexpectedly succeeded');
  return { message: result.error.message, calls };
}

const sel = (base: SelectorBase, ...steps: SelectorStep[]): ElementSelector => ({ base, steps });
const css = (selector: string, ...steps: SelectorStep[]): ElementSelector =>
  sel({ kind: 'css', selector }, ...steps);

describe('page members produce the right FacadeCall', () => {
  const cases: [string, FacadeCall[]][] = [
    [
      `await page.goto('https://shop.test/', { waitUntil: 'domcontentloaded', timeout: 5000 })`,
      [{ op: 'goto', url: 'https://shop.test/', waitUntil: 'domcontentloaded', timeoutMs: 5000 }],
    ],
    [`await page.goBack(); await page.goForward()`, [{ op: 'goBack' }, { op: 'goForward' }]],
    [`await page.reload({ waitUntil: 'load', timeout: 0 })`, [{ op: 'reload', waitUntil: 'load' }]],
    [
      `await page.click('#go', { button: 'right', clickCount: 2, modifiers: ['Shift'] })`,
      [{ op: 'click', target: css('#go'), button: 'right', clickCount: 2, modifiers: ['Shift'] }],
    ],
    [`await page.dblclick('#go')`, [{ op: 'click', target: css('#go'), clickCount: 2 }]],
    [`await page.fill('#q', 'hello')`, [{ op: 'fill', target: css('#q'), value: 'hello' }]],
    [
      `await page.type('#q', 'abc', { delay: 10 })`,
      [{ op: 'type', target: css('#q'), text: 'abc', delayMs: 10 }],
    ],
    [`await page.press('#q', 'Enter')`, [{ op: 'press', target: css('#q'), key: 'Enter' }]],
    [
      `await page.selectOption('select', 'b')`,
      [{ op: 'selectOption', target: css('select'), values: ['b'] }],
    ],
    [
      `await page.check('#c'); await page.uncheck('#c'); await page.hover('#h'); await page.focus('#f')`,
      [
        { op: 'check', target: css('#c') },
        { op: 'uncheck', target: css('#c') },
        { op: 'hover', target: css('#h') },
        { op: 'focus', target: css('#f') },
      ],
    ],
    [
      `await page.textContent('#t'); await page.innerText('#t'); await page.inputValue('#i'); await page.getAttribute('a', 'href')`,
      [
        { op: 'textContent', target: css('#t') },
        { op: 'innerText', target: css('#t') },
        { op: 'inputValue', target: css('#i') },
        { op: 'getAttribute', target: css('a'), name: 'href' },
      ],
    ],
    [
      `await page.isVisible('#v'); await page.isHidden('#v'); await page.isChecked('#c'); await page.isEnabled('#e'); await page.isDisabled('#e')`,
      [
        { op: 'isVisible', target: css('#v') },
        { op: 'isVisible', target: css('#v') },
        { op: 'isChecked', target: css('#c') },
        { op: 'isEnabled', target: css('#e') },
        { op: 'isEnabled', target: css('#e') },
      ],
    ],
    [`await page.title(); await page.url()`, [{ op: 'title' }, { op: 'url' }]],
    [
      `await page.waitForSelector('#x', { state: 'attached' }); await page.waitForSelector('#y')`,
      [
        { op: 'waitForSelector', target: css('#x'), state: 'attached' },
        { op: 'waitForSelector', target: css('#y'), state: 'visible' },
      ],
    ],
    [
      `await page.waitForURL('**/done', { timeout: 1000 })`,
      [{ op: 'waitForURL', url: '**/done', timeoutMs: 1000 }],
    ],
    [
      `await page.waitForLoadState('networkidle'); await page.waitForLoadState()`,
      [
        { op: 'waitForLoadState', state: 'networkidle' },
        { op: 'waitForLoadState', state: 'load' },
      ],
    ],
    [`await page.waitForTimeout(50)`, [{ op: 'waitForTimeout', ms: 50 }]],
    [
      `await page.keyboard.press('Control+A'); await page.keyboard.type('hi', { delay: 5 })`,
      [
        { op: 'keyboardPress', key: 'Control+A' },
        { op: 'keyboardType', text: 'hi', delayMs: 5 },
      ],
    ],
    [`await page.mouse.wheel(0, 400)`, [{ op: 'scroll', deltaX: 0, deltaY: 400 }]],
    [`await page.snapshot({ interactiveOnly: true })`, [{ op: 'snapshot', interactiveOnly: true }]],
  ];
  it.each(cases)('%s', async (code, expected) => {
    expect((await record(code)).calls).toEqual(expected);
  });
});

describe('locators produce serializable selector chains', () => {
  const role = (r: string, extra: Record<string, unknown> = {}): SelectorBase =>
    ({ kind: 'role', role: r, ...extra }) as SelectorBase;
  const cases: [string, FacadeCall[]][] = [
    [
      `await page.ref('@e5').click(); await page.ref('e6').click()`,
      [
        { op: 'click', target: sel({ kind: 'ref', ref: '@e5' }) },
        { op: 'click', target: sel({ kind: 'ref', ref: '@e6' }) },
      ],
    ],
    [`await page.click('@e7')`, [{ op: 'click', target: sel({ kind: 'ref', ref: '@e7' }) }]],
    [
      `await page.locator('ul > li', { hasText: 'Milk' }).nth(2).click()`,
      [
        {
          op: 'click',
          target: css('ul > li', { kind: 'filter', hasText: 'Milk' }, { kind: 'nth', index: 2 }),
        },
      ],
    ],
    [
      `await page.getByRole('button', { name: 'Save', exact: true }).first().click()`,
      [
        {
          op: 'click',
          target: sel(role('button', { name: 'Save', exact: true }), { kind: 'nth', index: 0 }),
        },
      ],
    ],
    [
      `await page.getByRole('heading', { level: 2, includeHidden: false }).last().innerText()`,
      [
        {
          op: 'innerText',
          target: sel(role('heading', { level: 2, includeHidden: false }), { kind: 'nth', index: -1 }),
        },
      ],
    ],
    [
      `await page.getByText('Welcome', { exact: true }).innerText(); await page.getByLabel('Email').fill('a@b.c');
       await page.getByPlaceholder('Search').type('x'); await page.getByTestId('submit').click();
       await page.getByAltText('logo').isVisible(); await page.getByTitle('Close').hover()`,
      [
        { op: 'innerText', target: sel({ kind: 'text', text: 'Welcome', exact: true }) },
        { op: 'fill', target: sel({ kind: 'label', text: 'Email' }), value: 'a@b.c' },
        { op: 'type', target: sel({ kind: 'placeholder', text: 'Search' }), text: 'x' },
        { op: 'click', target: sel({ kind: 'testId', testId: 'submit' }) },
        { op: 'isVisible', target: sel({ kind: 'altText', text: 'logo' }) },
        { op: 'hover', target: sel({ kind: 'title', text: 'Close' }) },
      ],
    ],
    [
      `await page.locator('form').getByRole('textbox', { name: 'Email' }).fill('x')`,
      [
        {
          op: 'fill',
          target: css('form', { kind: 'within', base: role('textbox', { name: 'Email' }) }),
          value: 'x',
        },
      ],
    ],
    [
      `await page.locator('.card').locator('h2', { hasNotText: 'Ad' }).last().textContent()`,
      [
        {
          op: 'textContent',
          target: css(
            '.card',
            { kind: 'within', base: { kind: 'css', selector: 'h2' } },
            { kind: 'filter', hasNotText: 'Ad' },
            { kind: 'nth', index: -1 },
          ),
        },
      ],
    ],
    [
      `return await page.locator('li').filter({ hasText: 'a', visible: true }).count()`,
      [{ op: 'count', target: css('li', { kind: 'filter', hasText: 'a', visible: true }) }],
    ],
    [
      `const l = page.locator('#x'); await l.clear(); await l.pressSequentially('ab', { delay: 1 }); await l.press('Enter');
       await l.setChecked(true); await l.setChecked(false); await l.scrollIntoViewIfNeeded(); await l.waitFor({ state: 'hidden' });
       await l.selectOption(['a', 'b']); await l.dblclick(); await l.focus(); await l.getAttribute('id');
       await l.allTextContents(); await l.allInnerTexts(); await l.inputValue(); await l.isChecked(); await l.isDisabled()`,
      [
        { op: 'fill', target: css('#x'), value: '' },
        { op: 'type', target: css('#x'), text: 'ab', delayMs: 1 },
        { op: 'press', target: css('#x'), key: 'Enter' },
        { op: 'check', target: css('#x') },
        { op: 'uncheck', target: css('#x') },
        { op: 'scrollIntoView', target: css('#x') },
        { op: 'waitForSelector', target: css('#x'), state: 'hidden' },
        { op: 'selectOption', target: css('#x'), values: ['a', 'b'] },
        { op: 'click', target: css('#x'), clickCount: 2 },
        { op: 'focus', target: css('#x') },
        { op: 'getAttribute', target: css('#x'), name: 'id' },
        { op: 'allTextContents', target: css('#x') },
        { op: 'allInnerTexts', target: css('#x') },
        { op: 'inputValue', target: css('#x') },
        { op: 'isChecked', target: css('#x') },
        { op: 'isEnabled', target: css('#x') },
      ],
    ],
  ];
  it.each(cases)('%s', async (code, expected) => {
    expect((await record(code)).calls).toEqual(expected);
  });

  it('all() returns one locator per match, built with nth', async () => {
    const { calls, value } = await record(
      `const items = await page.locator('li').all(); return [items.length, await items[1].textContent()]`,
    );
    expect(value).toEqual([3, 'text content']);
    expect(calls).toEqual([
      { op: 'count', target: css('li') },
      { op: 'textContent', target: css('li', { kind: 'nth', index: 1 }) },
    ]);
  });

  it('returns backend values to the script with their documented shapes', async () => {
    const { value } = await record(
      `return [await page.title(), await page.isHidden('#a'), await page.snapshot(), await page.selectOption('s', ['b'])]`,
    );
    expect(value).toEqual(['Title', false, '- button "Save" [ref=@e5]', ['b']]);
  });

  it('page and locators are awaitable and printable without tripping the unknown-member guard', async () => {
    const { value } = await record(
      `const p = await page; const l = await page.locator('a'); return [typeof p.goto, String(l), JSON.stringify(page)]`,
    );
    expect(value).toEqual(['function', 'Locator', '"page"']);
  });
});

describe('unsupported members name themselves and say what to use', () => {
  const pageMembers: [string, string][] = [
    [
      'evaluate',
      'page.evaluate is not available in browser_run: page JavaScript is off; use page.textContent/innerText or page.snapshot()',
    ],
    ['$eval', 'page.$eval is not available in browser_run: page JavaScript is off'],
    ['waitForEvent', 'page.waitForEvent is not available in browser_run: events are not available'],
    ['browser', 'page.browser is not available in browser_run: the page and its browser context are managed'],
    ['video', 'page.video is not available in browser_run: use page.screenshot() for an image'],
    ['frameLocator', 'page.frameLocator is not available in browser_run: frames are not supported'],
    ['waitForNavigation', 'page.waitForNavigation is not available in browser_run: use page.waitForURL'],
  ];
  it.each(pageMembers)('page.%s', async (member, expected) => {
    const { message } = await failure(`await page.${member}('x')`);
    expect(message).toContain(expected);
  });

  const locatorMembers = ['evaluate', 'boundingBox', 'elementHandle', 'innerHTML'];
  it.each(locatorMembers)('locator.%s', async (member) => {
    const { message } = await failure(`await page.locator('a').${member}()`);
    expect(message).toMatch(
      new RegExp(`^TypeError: locator\\.${member.replace('$', '\\$')} is not available in browser_run: .+`),
    );
  });

  it('unknown members list what is supported', async () => {
    expect((await failure(`await page.fooBar()`)).message).toMatch(
      /page\.fooBar is not available in browser_run \(page supports: .*goto.*getByRole/,
    );
    expect((await failure(`page.keyboard.down('Shift')`)).message).toContain(
      'keyboard.down is not available',
    );
    expect((await failure(`page.mouse.tripleClick(1, 2)`)).message).toContain(
      'mouse.tripleClick is not available in browser_run',
    );
    expect((await failure(`page.locator('a').foo`)).message).toContain(
      'locator.foo is not available in browser_run (locator supports: click',
    );
  });

  it('facade objects are read-only', async () => {
    expect((await failure(`page.goto = () => 1`)).message).toContain('page.goto cannot be assigned');
  });
});

describe('bad arguments are refused on the host, naming the member and argument', () => {
  const cases: [string, string][] = [
    [`await page.goto(42)`, "page.goto: argument 'url' must be a string, got a number"],
    [
      `await page.click('#a', { force: true })`,
      "page.click: option 'force' is not supported (supported: button, clickCount, modifiers, timeout)",
    ],
    [`await page.click('#a', 'fast')`, 'page.click: options must be an object, got a string'],
    [
      `page.getByRole('button', { name: /Save/ })`,
      "page.getByRole: option 'name' must be a string, got a RegExp",
    ],
    [`page.getByRole('Button!')`, "page.getByRole: argument 'role' must be an ARIA role such as 'button'"],
    [`page.ref('x5')`, "page.ref: argument 'ref' must look like '@e5'"],
    [`page.locator('li').nth(1.5)`, "locator.nth: argument 'index' must be an integer, got a number"],
    [
      `page.locator('li').filter({ has: page.locator('b') })`,
      "locator.filter: option 'has' is not supported (supported: hasText, hasNotText, visible)",
    ],
    [
      `await page.waitForTimeout(-1)`,
      "page.waitForTimeout: argument 'timeout' must be between 0 and 600000, got -1",
    ],
    [`await page.keyboard.press('')`, "keyboard.press: argument 'key' must not be empty"],
    [`await page.fill('#a', () => 1)`, "page.fill: argument 'value' must be a string, got a function"],
    [
      `await page.waitForSelector('#a', { state: 'gone' })`,
      "page.waitForSelector: option 'state' must be one of 'attached', 'detached', 'visible', 'hidden', got 'gone'",
    ],
    [
      `await page.locator('a').click({ modifiers: ['Hyper'] })`,
      "locator.click: option 'modifiers' must be one of 'Alt'",
    ],
    [
      `await page.fill('#a', 'x'.repeat(200000))`,
      "page.fill: argument 'value' is too long (200000 chars, max 100000)",
    ],
    [`await page.locator('a').setChecked('yes')`, 'locator.setChecked: argument must be true or false'],
    [`await page.goto('https://a.test', 1n)`, 'page.goto: arguments must be plain strings'],
    [
      `await page.screenshot({ quality: 50 })`,
      "page.screenshot: option 'quality' applies to type 'jpeg' only",
    ],
    [`await page.screenshot({ type: 'gif' })`, "page.screenshot: option 'type' must be one of 'png', 'jpeg'"],
    [
      `await page.screenshot({ type: 'jpeg', quality: 101 })`,
      "page.screenshot: option 'quality' must be between 0 and 100",
    ],
    [`await page.screenshot({ path: 'a.png' })`, "page.screenshot: option 'path' is not supported"],
    [
      `await page.locator('a').screenshot({ fullPage: true })`,
      "locator.screenshot: option 'fullPage' is not supported (supported: type, quality, timeout)",
    ],
  ];
  it.each(cases)('%s', async (code, expected) => {
    const { message, calls } = await failure(code);
    expect(message).toContain(expected);
    expect(calls).toEqual([]);
  });
});
