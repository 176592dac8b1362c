/**
 * Seed 000's extended tools through `getTools()` on the fixture site: hover, dialog, wait, tabs,
 * drag and evaluate. Results are checked against each tool's output schema (ToolDriver.call).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { ToolDriver, until } from './support/agent.js';

let site: FixtureServer;
let browser: AgentBrowser;
let t: ToolDriver;

function sendPage(res: ServerResponse, title: string, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html><head><title>${title}</title></head><body><main>${body}</main></body></html>`,
  );
}

// The file's site and AgentBrowser come from the shared fixtures.
test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  // Small pages with roles on every target, so each has a ref.
  site.route('/agent/pointer', (_req, res) =>
    sendPage(
      res,
      'Pointer',
      `<button id="hover" onmouseenter="document.getElementById('hover-status').textContent = 'hovered'">Hover target</button>
       <p id="hover-status"></p>
       <button id="item" draggable="true">Drag item</button>
       <button id="zone">Drop zone</button>
       <p id="drop-status"></p>
       <button id="vanish" onclick="setTimeout(() => this.remove(), 300)">Vanish</button>
       <script>
         item.addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', 'item'));
         zone.addEventListener('dragover', (e) => e.preventDefault());
         zone.addEventListener('drop', (e) => { e.preventDefault(); document.getElementById('drop-status').textContent = 'dropped: ' + e.dataTransfer.getData('text/plain'); });
       </script>`,
    ),
  );
  site.route('/agent/busy', (_req, res) =>
    sendPage(
      res,
      'Busy',
      `<p id="tick">0</p><script>let n = 0; setInterval(() => (document.getElementById('tick').textContent = String(++n)), 100);</script>`,
    ),
  );
  browser = agentBrowser;
  t = new ToolDriver(browser, { threadId: 'extended-tools' });
});

describe('extended tools', () => {
  test('browser_hover moves the mouse over the element', async () => {
    await t.ok('browser_goto', { url: site.url('/agent/pointer') });
    await t.ok('browser_hover', { ref: await t.ref('button', 'Hover target') });
    expect(await t.text('hover-status')).toBe('hovered');
  });

  test('browser_drag drops one element on another (HTML5 drag and drop)', async () => {
    await t.ok('browser_goto', { url: site.url('/agent/pointer') });
    await t.ok('browser_drag', {
      sourceRef: await t.ref('button', 'Drag item'),
      targetRef: await t.ref('button', 'Drop zone'),
    });
    expect(await t.text('drop-status')).toBe('dropped: item');
  });

  test('browser_dialog clicks the trigger and accepts or dismisses the dialog, with prompt text', async () => {
    await t.ok('browser_goto', { url: site.url('/actions/dialogs') });
    const confirmed = await t.ok<{ dialog: { type: string; message: string; action: string } }>(
      'browser_dialog',
      {
        triggerRef: await t.ref('button', 'Show confirm'),
        action: 'accept',
      },
    );
    expect(confirmed.dialog).toMatchObject({ type: 'confirm', message: 'Are you sure?', action: 'accepted' });
    expect(await t.text('dialog-status')).toBe('confirm: true');
    await t.ok('browser_dialog', { triggerRef: await t.ref('button', 'Show confirm'), action: 'dismiss' });
    expect(await t.text('dialog-status')).toBe('confirm: false');
    await t.ok('browser_dialog', {
      triggerRef: await t.ref('button', 'Show prompt'),
      action: 'accept',
      text: 'Grace',
    });
    expect(await t.text('dialog-status')).toBe('prompt: Grace');
    const alert = await t.ok<{ dialog: { type: string } }>('browser_dialog', {
      triggerRef: await t.ref('button', 'Show alert'),
      action: 'dismiss',
    });
    expect(alert.dialog.type).toBe('alert');
    // A trigger that opens no dialog: a quick, structured answer, not a full-timeout wait.
    await t.ok('browser_goto', { url: site.url('/actions/buttons') });
    const started = Date.now();
    const none = await t.fails('browser_dialog', {
      triggerRef: await t.ref('button', 'Increment'),
      action: 'accept',
    });
    expect(none.code).toBe('INVALID_ARGUMENT');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('a dialog nobody expected is dismissed and reported, and never blocks the thread', async () => {
    await t.ok('browser_goto', { url: site.url('/actions/dialogs') });
    const clicked = await t.ok<{ dialogs?: string[] }>('browser_click', {
      ref: await t.ref('button', 'Show alert'),
    });
    // The one-line form every face reports (as over MCP).
    expect(clicked.dialogs).toEqual([expect.stringMatching(/^alert ".*" \(dismissed\)$/)]);
    expect(await t.text('dialog-status')).toBe('alert closed');
  });

  test("browser_wait waits for a ref's state, or for the page to settle, bounded and never a blind sleep", async () => {
    await t.ok('browser_goto', { url: site.url('/agent/pointer') });
    const vanish = await t.ref('button', 'Vanish');
    expect(await t.ok('browser_wait', { ref: vanish })).toMatchObject({ state: 'visible' });
    await t.ok('browser_click', { ref: vanish });
    expect(await t.ok('browser_wait', { ref: vanish, state: 'detached', timeout: 10_000 })).toMatchObject({
      state: 'detached',
    });
    // A quiet page: returns after about half a second, not after the timeout.
    const quiet = await t.ok<{ quiet: boolean; waitedMs: number }>('browser_wait', { timeout: 20_000 });
    expect(quiet.quiet).toBe(true);
    expect(quiet.waitedMs).toBeLessThan(3000);
    // Late content (inside the 500 ms quiet window): the wait ends once it arrived and the page settled.
    await t.ok('browser_goto', { url: site.url('/actions/late?ms=300'), waitUntil: 'domcontentloaded' });
    expect((await t.ok<{ quiet: boolean }>('browser_wait', {})).quiet).toBe(true);
    expect(await t.text('late-content')).toBe('Late content ready');
    // A page that never settles: the wait ends at its timeout with quiet=false (not an error).
    await t.ok('browser_goto', { url: site.url('/agent/busy') });
    const busy = await t.ok<{ quiet: boolean; waitedMs: number }>('browser_wait', { timeout: 1200 });
    expect(busy.quiet).toBe(false);
    expect(busy.waitedMs).toBeGreaterThanOrEqual(1100);
    expect((await t.fails('browser_wait', { state: 'visible' })).code).toBe('INVALID_ARGUMENT');
    await t.ok('browser_goto', { url: site.url('/agent/pointer') });
    const stays = await t.ref('button', 'Hover target');
    expect(await t.fails('browser_wait', { ref: stays, state: 'detached', timeout: 300 })).toMatchObject({
      code: 'OPERATION_TIMEOUT',
      canRetry: true,
    });
    expect(await t.ok('browser_wait', { ref: stays, state: 'attached' })).toMatchObject({
      state: 'attached',
    });
  });

  test('browser_tabs lists, opens, switches (by index or stable tabId) and closes tabs, popups included', async () => {
    const own = new ToolDriver(browser, { threadId: 'tabs' });
    await own.ok('browser_goto', { url: site.url('/actions/popup') });
    await own.ok('browser_click', { ref: await own.ref('button', 'Open popup') });
    type Tabs = {
      tabs: Array<{ index: number; tabId: string; url: string; title: string; current: boolean }>;
      currentIndex: number;
    };
    await until(
      async () => (await own.ok<Tabs>('browser_tabs', { action: 'list' })).tabs.length === 2,
      10_000,
      'the popup tab',
    );
    const listed = await own.ok<Tabs>('browser_tabs', { action: 'list' });
    expect(listed.currentIndex).toBe(0);
    expect(listed.tabs[1]?.url).toBe(site.url('/actions/popup-child'));
    const opened = await own.ok<Tabs>('browser_tabs', { action: 'new', url: site.url('/shop/') });
    expect(opened.currentIndex).toBe(2);
    expect(opened.tabs[2]).toMatchObject({ url: site.url('/shop/'), title: 'Mesh Shop', current: true });
    // Tools now act on the new current tab.
    expect(
      (await own.ok<{ snapshot: string }>('browser_snapshot', { interactiveOnly: true })).snapshot,
    ).toContain('Mesh Shop');
    const popupId = listed.tabs[1]?.tabId ?? '';
    expect((await own.ok<Tabs>('browser_tabs', { action: 'switch', tabId: popupId })).currentIndex).toBe(1);
    await own.ok('browser_click', { ref: await own.ref('button', 'Child button') });
    expect(await own.text('child-status')).toBe('child clicked');
    // Closing the current tab moves the thread to its opener.
    const closed = await own.ok<Tabs>('browser_tabs', { action: 'close' });
    expect(closed.tabs.map((tab) => tab.url)).toEqual([site.url('/actions/popup'), site.url('/shop/')]);
    expect(closed.currentIndex).toBe(0);
    expect((await own.ok<Tabs>('browser_tabs', { action: 'switch', index: 1 })).currentIndex).toBe(1);
    expect((await own.fails('browser_tabs', { action: 'switch', index: 7 })).code).toBe('PAGE_NOT_FOUND');
    expect((await own.fails('browser_tabs', { action: 'switch' })).code).toBe('INVALID_ARGUMENT');
    expect((await own.fails('browser_tabs', { action: 'list', url: site.url('/') })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await own.ok<Tabs>('browser_tabs', { action: 'close', index: 0 })).tabs).toHaveLength(1);
  });

  test('browser_evaluate runs a script, returning bounded JSON only when asked', async () => {
    await t.ok('browser_goto', { url: site.url('/shop/') });
    expect(await t.ok('browser_evaluate', { script: 'document.title', returnValue: true })).toEqual({
      value: 'Mesh Shop',
      type: 'string',
    });
    expect(await t.ok('browser_evaluate', { script: 'window.__x = 41; window.__x + 1' })).toEqual({});
    expect(
      await t.ok('browser_evaluate', {
        script: 'Promise.resolve({ a: [1, 2], b: null })',
        returnValue: true,
      }),
    ).toEqual({ value: { a: [1, 2], b: null }, type: 'object' });
    const big = await t.ok<{ value: string; truncated: boolean }>('browser_evaluate', {
      script: "'x'.repeat(100000)",
      returnValue: true,
    });
    expect(big.truncated).toBe(true);
    expect(big.value.length).toBeLessThanOrEqual(16 * 1024);
    const thrown = await t.fails('browser_evaluate', { script: 'document.querySelector("#nope").click()' });
    expect(thrown.code).toBe('SCRIPT_ERROR');
    expect(thrown.message).toContain('TypeError');
    expect(
      (await t.fails('browser_evaluate', { script: 'const a = {}; a.self = a; a', returnValue: true })).code,
    ).toBe('SCRIPT_ERROR');
    expect(
      (await t.ok<{ value: number }>('browser_evaluate', { script: '6 * 7', returnValue: true })).value,
    ).toBe(42);
  });
});
