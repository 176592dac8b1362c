import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

/** Every supported facade member against real pages, through browser_run over MCP. */

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

const PAGE = `<!doctype html><html><head><title>Facade page</title></head><body>
<h1>Facade</h1>
<ul id="fruits"><li class="fruit">Apple</li><li class="fruit">Banana <b>split</b></li><li class="fruit" style="display:none">Hidden cherry</li></ul>
<label for="name">Your name</label><input id="name" placeholder="Type a name" data-testid="name-input" title="Name field">
<label><input type="checkbox" id="agree"> Agree</label>
<select id="size" aria-label="Size"><option value="s">Small</option><option value="m">Medium</option></select>
<button id="go" onclick="document.getElementById('out').textContent = 'clicked ' + (++window.n)">Go</button>
<button disabled>Off</button>
<p id="out">idle</p>
<p id="keys"></p>
<div id="hover-me" onmouseenter="this.textContent='hovered'">hover target</div>
<a href="/facade-2">Next page</a>
<section aria-label="Cards"><article><h2>Card one</h2><button>Buy</button></article><article><h2>Card two</h2><button>Buy</button></article></section>
<div style="height:3000px"></div>
<script>window.n = 0; document.getElementById('name').addEventListener('keydown', (e) => { document.getElementById('keys').textContent += e.key; });</script>
</body></html>`;

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  site.route('/facade', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  site.route('/facade-2', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Second</title><h1>Second page</h1>');
  });
  h = harness;
  s = await h.session();
});

async function run<T>(code: string): Promise<T> {
  const out = await h.ok<{ value: T }>('browser_run', { ...s, code, timeoutMs: 45_000 });
  return out.value;
}

describe('facade members on a real page', () => {
  // hover's runner and step live in its definition (src/tools/interactions.ts, `code` parts):
  // the step runs the same operation as page.hover (the `actions` test below).
  test("hover as a browser_run step, from the tool's definition", async () => {
    const out = await h.ok<{ completed: number }>('browser_run', {
      ...s,
      actions: [
        { action: 'goto', url: site.url('/facade') },
        { action: 'hover', locator: { css: '#hover-me' } },
        { action: 'wait', text: 'hovered' },
      ],
    });
    expect(out.completed).toBe(3);
    const bad = await h.err('browser_run', { ...s, actions: [{ action: 'hover' }] });
    expect(bad.code).toBe('INVALID_ARGUMENT');
  });

  test('reads: textContent, innerText, inputValue, isVisible, isChecked, isEnabled, getAttribute, count, all*', async () => {
    const value = await run<Record<string, unknown>>(`
      await page.goto('${site.url('/facade')}');
      const fruits = page.locator('#fruits .fruit');
      return {
        title: await page.title(),
        url: await page.url(),
        text: await page.textContent('h1'),
        inner: await page.innerText('#fruits li:nth-child(2)'),
        input: await page.inputValue('#name'),
        visible: await page.isVisible('#out'),
        hiddenVisible: await page.locator('.fruit').filter({ hasText: 'cherry' }).isVisible(),
        missingVisible: await page.isVisible('#nope'),
        checked: await page.isChecked('#agree'),
        enabled: await page.getByRole('button', { name: 'Off' }).isEnabled(),
        attr: await page.getAttribute('#name', 'placeholder'),
        noAttr: await page.locator('#name').getAttribute('nope'),
        count: await fruits.count(),
        all: await fruits.allTextContents(),
        allInner: await page.locator('#fruits .fruit').allInnerTexts(),
        first: await fruits.first().textContent(),
        last: await fruits.last().textContent(),
        nth: await fruits.nth(1).innerText(),
        filtered: await fruits.filter({ hasText: 'Banana' }).count(),
        each: await Promise.all((await fruits.all()).map((l) => l.textContent())),
        byText: await page.getByText('Card two').textContent(),
        byPlaceholder: await page.getByPlaceholder('Type a name').getAttribute('id'),
        byTestId: await page.getByTestId('name-input').getAttribute('id'),
        byLabel: await page.getByLabel('Your name').getAttribute('id'),
        within: await page.getByRole('article').filter({ hasText: 'Card two' }).getByRole('heading').textContent(),
      };
    `);
    expect(value).toEqual({
      title: 'Facade page',
      url: site.url('/facade'),
      text: 'Facade',
      inner: 'Banana split',
      input: '',
      visible: true,
      hiddenVisible: false,
      missingVisible: false,
      checked: false,
      enabled: false,
      attr: 'Type a name',
      noAttr: null,
      count: 3,
      all: ['Apple', 'Banana split', 'Hidden cherry'],
      // As in Chromium: innerText of an element that is not rendered is its textContent.
      allInner: ['Apple', 'Banana split', 'Hidden cherry'],
      first: 'Apple',
      last: 'Hidden cherry',
      nth: 'Banana split',
      filtered: 1,
      each: ['Apple', 'Banana split', 'Hidden cherry'],
      byText: 'Card two',
      byPlaceholder: 'name',
      byTestId: 'name',
      byLabel: 'name',
      within: 'Card two',
    });
  });

  test('actions: click, fill, type, press, keyboard, check/uncheck, selectOption, hover, waits, scroll', async () => {
    const value = await run<Record<string, unknown>>(`
      await page.goto('${site.url('/facade')}', { waitUntil: 'domcontentloaded' });
      await page.waitForLoadState('load');
      await page.click('#go');
      await page.getByRole('button', { name: 'Go' }).click();
      await page.fill('#name', 'Ada');
      await page.locator('#name').fill('Grace');
      await page.type('#name', 'X');
      await page.press('#name', 'End');
      await page.keyboard.type('yz');
      await page.keyboard.press('Backspace');
      await page.check('#agree');
      const afterCheck = await page.isChecked('#agree');
      await page.uncheck('#agree');
      const sized = await page.selectOption('#size', 'Medium');
      await page.hover('#hover-me');
      await page.waitForSelector('#hover-me');
      await page.mouse.wheel(0, 400);
      const buy = page.getByRole('article').filter({ hasText: 'Card two' }).getByRole('button', { name: 'Buy' });
      await buy.click();
      await page.waitForTimeout(100);
      return {
        out: await page.textContent('#out'),
        name: await page.inputValue('#name'),
        keys: await page.textContent('#keys'),
        afterCheck,
        unchecked: await page.isChecked('#agree'),
        sized,
        size: await page.inputValue('#size'),
        hover: await page.textContent('#hover-me'),
      };
    `);
    expect(value).toEqual({
      out: 'clicked 2',
      name: 'GraceXy',
      keys: expect.stringContaining('End'),
      afterCheck: true,
      unchecked: false,
      sized: ['m'],
      size: 'm',
      hover: 'hovered',
    });
  });

  test('navigation: goto, waitForURL, goBack, reload, snapshot and page.ref', async () => {
    const value = await run<Record<string, unknown>>(`
      await page.goto('${site.url('/facade')}');
      await page.getByRole('link', { name: 'Next page' }).click();
      await page.waitForURL('**/facade-2');
      const second = await page.title();
      await page.goBack();
      const back = await page.url();
      await page.reload();
      const snap = await page.snapshot({ interactiveOnly: true });
      const ref = /\\[button @(e\\d+)\\] Go/.exec(snap)[1];
      await page.ref('@' + ref).click();
      return { second, back, hasRef: snap.includes('[button @'), out: await page.textContent('#out') };
    `);
    expect(value).toEqual({ second: 'Second', back: site.url('/facade'), hasRef: true, out: 'clicked 1' });
  });

  test('surfaces locator errors to the script as catchable errors with codes', async () => {
    const value = await run<Record<string, string>>(`
      await page.goto('${site.url('/facade')}');
      const codes = {};
      for (const [name, act] of [
        ['ambiguous', () => page.locator('.fruit').textContent()],
        ['missing', () => page.click('#missing', { timeout: 2000 })],
        ['disabled', () => page.getByRole('button', { name: 'Off' }).click({ timeout: 1000 })],
        ['stale', () => page.ref('@e999').click()],
        ['badUrl', () => page.goto('javascript:alert(1)')],
        ['notInput', () => page.inputValue('h1')],
      ]) {
        try { await act(); codes[name] = 'ok'; } catch (e) { codes[name] = e.code; }
      }
      return codes;
    `);
    expect(value).toMatchObject({
      ambiguous: 'LOCATOR_AMBIGUOUS',
      missing: 'ELEMENT_NOT_FOUND',
      badUrl: 'INVALID_ARGUMENT',
      notInput: 'ELEMENT_NOT_INTERACTABLE',
    });
    expect(['ELEMENT_NOT_INTERACTABLE', 'OPERATION_TIMEOUT']).toContain(value.disabled);
    expect(['STALE_ELEMENT_REFERENCE', 'ELEMENT_NOT_FOUND']).toContain(value.stale);
  });

  test('names unsupported members and what to use instead', async () => {
    const error = await h.err('browser_run', { ...s, code: `await page.evaluate(() => document.cookie);` });
    expect(error.code).toBe('SCRIPT_ERROR');
    expect(error.details?.kind).toBe('runtime');
    expect(error.message).toContain('page.evaluate');
    const locatorMiss = await h.err('browser_run', {
      ...s,
      code: `await page.locator('a').dispatchEvent('click');`,
    });
    expect(locatorMiss.message).toContain('dispatchEvent');
  });
});
