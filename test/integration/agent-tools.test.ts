/**
 * Seed 000's core tools through `getTools()` on the fixture site: goto, snapshot, click, type, press,
 * select, scroll, screenshot, close and back. Every result is checked against the tool's own output
 * schema (see ToolDriver.call). Bad inputs come back as `{ error }` and the next call works.
 */
import { describe, expect, test } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import { BROWSER_TOOL_NAMES } from '../../src/agent/options.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { testAgentBrowser, ToolDriver, until } from './support/agent.js';

let site: FixtureServer;
let browser: AgentBrowser;
let t: ToolDriver;

// The file's site and AgentBrowser come from the shared fixtures.
test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  // Content that arrives by a slow fetch after load: what networkidle is for.
  site.route('/agent/fetching', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Fetching</title><p id="data">loading</p>
      <script>addEventListener('load', () => fetch('/api/data?delay=400').then((r) => r.json()).then((d) => (document.getElementById('data').textContent = 'items: ' + d.items.length)));</script>`);
  });
  browser = agentBrowser;
  t = new ToolDriver(browser, { threadId: 'core-tools' });
});

describe('the tool set', () => {
  test("publishes seed 000's tools with zod schemas, and excludeTools removes tools by name", () => {
    const tools = browser.getTools();
    const seed = BROWSER_TOOL_NAMES.filter(
      (name) =>
        ![
          'browser_run',
          'browser_upload',
          'browser_files',
          'browser_mouse',
          'browser_select_text',
          'browser_record',
          'browser_record_caption',
          'browser_request_human',
          'browser_replay',
        ].includes(name),
    );
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(seed));
    expect(seed).toHaveLength(16);
    for (const tool of Object.values(tools)) {
      expect(tool?.description.length).toBeGreaterThan(20);
      expect(typeof tool?.inputSchema.safeParse).toBe('function');
      expect(typeof tool?.outputSchema.safeParse).toBe('function');
    }
    const lean = testAgentBrowser({ excludeTools: ['browser_screenshot', 'browser_evaluate'] });
    expect(lean.getTools().browser_screenshot).toBeUndefined();
    expect(lean.getTools().browser_evaluate).toBeUndefined();
    expect(lean.getTools().browser_goto).toBeDefined();
  });

  test("takes seed 000's input shapes exactly (strict: an unknown field is refused, naming it)", async () => {
    const error = await t.fails('browser_goto', { url: site.url('/'), wait: 'load' });
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', canRetry: false });
    expect(error.message).toContain('wait');
    expect((await t.fails('browser_goto', {})).code).toBe('INVALID_ARGUMENT');
    await t.ok('browser_goto', { url: site.url('/') });
  });
});

describe('core tools', () => {
  test('browser_goto returns url, title and status; networkidle waits for requests after load', async () => {
    const page = await t.ok('browser_goto', {
      url: site.url('/shop/'),
      waitUntil: 'domcontentloaded',
      timeout: 20_000,
    });
    expect(page).toEqual({
      url: site.url('/shop/'),
      title: 'Mesh Shop',
      status: 200,
      loadState: 'domcontentloaded',
    });
    await t.ok('browser_goto', { url: site.url('/agent/fetching'), waitUntil: 'networkidle' });
    expect(await t.text('data')).toMatch(/^items: \d+$/);
    const refused = await t.fails('browser_goto', { url: 'file:///etc/passwd' });
    expect(refused.code).toBe('INVALID_ARGUMENT');
    const down = await t.fails('browser_goto', { url: site.refusedUrl });
    expect(down).toMatchObject({ code: 'NAVIGATION_FAILED', canRetry: true });
  });

  test('browser_snapshot returns refs; interactiveOnly and maxDepth trim the tree; the model sees plain text', async () => {
    await t.ok('browser_goto', { url: site.url('/shop/login') });
    const full = await t.ok<{ snapshot: string; refCount: number; partial: boolean; title: string }>(
      'browser_snapshot',
      {},
    );
    expect(full.snapshot).toMatch(/\[textbox @e\d+ required\] Username/);
    expect(full.snapshot).toMatch(/\[button @e\d+\] Sign in/);
    expect(full.refCount).toBeGreaterThan(3);
    expect(full.partial).toBe(false);
    const interactive = await t.ok<{ snapshot: string }>('browser_snapshot', { interactiveOnly: true });
    expect(interactive.snapshot.length).toBeLessThanOrEqual(full.snapshot.length);
    const shallow = await t.ok<{ snapshot: string }>('browser_snapshot', { maxDepth: 1 });
    expect(shallow.snapshot.split('\n').length).toBeLessThan(full.snapshot.split('\n').length);
    const content = t.tool('browser_snapshot').toModelContent(full);
    expect(content).toEqual([{ type: 'text', text: expect.stringContaining('[button @e') }]);
    expect((await t.fails('browser_snapshot', { maxDepth: 0 })).code).toBe('INVALID_ARGUMENT');
  });

  test('browser_type and browser_click log in; an unknown ref is a structured error and the next call works', async () => {
    await t.ok('browser_goto', { url: site.url('/shop/login') });
    await t.ok('browser_type', { ref: await t.ref('textbox', 'Username'), text: 'buyer' });
    await t.ok('browser_type', { ref: await t.ref('textbox', 'Password'), text: 'wrong', delay: 5 });
    await t.ok('browser_type', { ref: await t.ref('textbox', 'Password'), text: 'buyer-pass', clear: true });
    const unknown = await t.fails('browser_click', { ref: '@e9999' });
    expect(['STALE_ELEMENT_REFERENCE', 'ELEMENT_NOT_FOUND']).toContain(unknown.code);
    expect(unknown.recoveryHint).toBeTruthy();
    const clicked = await t.ok<{ completed: boolean; url?: string }>('browser_click', {
      ref: await t.ref('button', 'Sign in'),
    });
    expect(clicked.url).toBe(site.url('/shop/account'));
    expect(await t.text('signed-in-as')).toBe('Signed in as buyer');
  });

  test('browser_click honours button, clickCount and modifiers', async () => {
    await t.ok('browser_goto', { url: site.url('/actions/buttons') });
    const increment = await t.ref('button', 'Increment');
    await t.ok('browser_click', { ref: increment, clickCount: 2 });
    expect(await t.text('count')).toBe('Count: 2');
    await t.ok('browser_evaluate', {
      script:
        "document.getElementById('increment').addEventListener('mousedown', (e) => { document.title = `${e.button}:${e.shiftKey}:${e.ctrlKey}`; })",
    });
    await t.ok('browser_click', { ref: increment, button: 'right', modifiers: ['Shift', 'Control'] });
    expect(
      (await t.ok<{ value: string }>('browser_evaluate', { script: 'document.title', returnValue: true }))
        .value,
    ).toBe('2:true:true');
    expect((await t.fails('browser_click', { ref: increment, modifiers: ['Hyper'] })).code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  test('browser_press sends keys and combinations, with modifiers', async () => {
    await t.ok('browser_goto', { url: site.url('/actions/keyboard') });
    await t.ok('browser_type', { ref: await t.ref('textbox', 'Key log input'), text: 'hi' });
    await t.ok('browser_press', { key: 'a', modifiers: ['Control'] });
    expect(await t.text('key-status')).toBe('select all');
    await t.ok('browser_press', { key: 'Enter' });
    expect(await t.text('key-status')).toBe('submitted: hi');
    expect((await t.fails('browser_press', { key: 'NotAKey' })).code).toBe('INVALID_ARGUMENT');
    await t.ok('browser_press', { key: 'Control+a' });
    expect(await t.text('key-status')).toBe('select all');
  });

  test('browser_select picks by value, label or index, and refuses a call without one', async () => {
    await t.ok('browser_goto', { url: site.url('/actions/select') });
    const fruit = await t.ref('combobox', 'Fruit');
    expect(await t.ok('browser_select', { ref: fruit, value: 'ban' })).toMatchObject({ selected: ['ban'] });
    expect(await t.text('fruit-status')).toBe('selected: ban (label: Banana, index: 2)');
    await t.ok('browser_select', { ref: fruit, label: 'Cherry' });
    expect(await t.text('fruit-status')).toBe('selected: cherry (label: Cherry, index: 3)');
    await t.ok('browser_select', { ref: fruit, index: 4 });
    expect(await t.text('fruit-status')).toBe('selected: Date (label: Dates, index: 4)');
    const none = await t.fails('browser_select', { ref: fruit });
    expect(none.code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_select', { ref: fruit, value: 'ban', index: 1 })).code).toBe(
      'INVALID_ARGUMENT',
    );
    await t.ok('browser_select', { ref: fruit, label: 'Apple' });
    expect(await t.text('fruit-status')).toBe('selected: apl (label: Apple, index: 1)');
  });

  test('browser_scroll scrolls the page (default 300 px) or an element by ref', async () => {
    await t.ok('browser_goto', { url: site.url('/actions/scroll') });
    expect(await t.ok('browser_scroll', { direction: 'down' })).toMatchObject({
      scrollY: 300,
      container: 'page',
    });
    expect(await t.ok('browser_scroll', { direction: 'up', amount: 100 })).toMatchObject({ scrollY: 200 });
    const list = await t.ref('clickable', 'Scrollable list');
    expect(await t.ok('browser_scroll', { direction: 'down', amount: 120, ref: list })).toMatchObject({
      scrollY: 120,
      container: 'element',
    });
    // The page reports scroll events a frame later.
    await until(
      async () => (await t.text('inner-status')) === 'Inner scrollTop: 120',
      10_000,
      'the page to see the scroll',
    );
  });

  test('browser_screenshot returns a PNG of the viewport or the full page, as an image for the model', async () => {
    await t.ok('browser_goto', { url: site.url('/actions/scroll') });
    const shot = await t.ok<{ width: number; height: number; data: string }>('browser_screenshot', {});
    expect([shot.width, shot.height]).toEqual([1280, 720]);
    expect(Buffer.from(shot.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const full = await t.ok<{ height: number }>('browser_screenshot', { fullPage: true });
    expect(full.height).toBeGreaterThan(3000);
    const content = t.tool('browser_screenshot').toModelContent(shot);
    expect(content[1]).toEqual({ type: 'image', data: shot.data, mimeType: 'image/png' });
  });

  test('browser_back goes back in history', async () => {
    await t.ok('browser_goto', { url: site.url('/actions/nav') });
    await t.ok('browser_click', { ref: await t.ref('link', 'Go to target page') });
    expect(await t.ok('browser_back', {})).toMatchObject({ url: site.url('/actions/nav'), moved: true });
  });

  test("browser_close closes this thread's session (logins gone) and the next call starts fresh", async () => {
    const own = new ToolDriver(browser, { threadId: 'closer' });
    await own.ok('browser_goto', { url: site.url('/shop/') });
    await own.ok('browser_evaluate', { script: "document.cookie = 'left=behind; path=/'" });
    expect(await own.ok('browser_close', {})).toEqual({ closed: 'thread' });
    expect(browser.status).toBe('ready');
    expect(await own.ok('browser_close', {})).toEqual({ closed: 'nothing' });
    await own.ok('browser_goto', { url: site.url('/shop/') });
    expect(
      (await own.ok<{ value: string }>('browser_evaluate', { script: 'document.cookie', returnValue: true }))
        .value,
    ).not.toContain('left=behind');
  });
});
