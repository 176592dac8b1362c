import type { ServerResponse } from 'node:http';
import type { FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  // An alert nobody asked for, raised by a timer while no operation runs.
  site.route('/timer-alert', (_req, res: ServerResponse) => {
    res.setHeader('content-type', 'text/html');
    res.end(
      '<!doctype html><title>t</title><p id="s">waiting</p><script>setTimeout(() => { alert("surprise"); document.getElementById("s").textContent = "after alert"; }, 100)</script>',
    );
  });
  h = harness;
});

type Session = { sessionId: string; pageId: string };
const button = (name: string): Record<string, unknown> => ({ locator: { role: 'button', name } });
const shows = (s: Session, text: string): Promise<unknown> =>
  h.ok('browser_wait', { ...s, text, timeoutMs: 5000 });

async function onDialogsPage(): Promise<Session> {
  const s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/actions/dialogs') });
  return s;
}

function expectDialog(
  s: Session,
  name: string,
  waitFor: Record<string, unknown>,
): Promise<{ event: { type: string; dialog: Record<string, unknown> } }> {
  return h.ok('browser_action_and_wait', {
    ...s,
    target: button(name),
    waitFor: { kind: 'dialog', ...waitFor },
  });
}

describe('dialogs', () => {
  test('handles each dialog type atomically as asked', async () => {
    const s = await onDialogsPage();
    const alert = await expectDialog(s, 'Show alert', { type: 'alert' });
    expect(alert.event).toEqual({
      type: 'dialog',
      dialog: {
        type: 'alert',
        message: 'Hello from the fixture',
        messageTruncated: false,
        action: 'accepted',
      },
    });
    await shows(s, 'alert closed');
    await expectDialog(s, 'Show confirm', { type: 'confirm', accept: true });
    await shows(s, 'confirm: true');
    await expectDialog(s, 'Show confirm', { type: 'confirm', accept: false });
    await shows(s, 'confirm: false');
    const prompt = await expectDialog(s, 'Show prompt', { type: 'prompt', promptText: 'Grace' });
    expect(prompt.event.dialog).toMatchObject({ type: 'prompt', message: 'What is your name?' });
    await shows(s, 'prompt: Grace');
    await expectDialog(s, 'Show prompt', { type: 'prompt', accept: false });
    await shows(s, 'prompt: null');
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('handles beforeunload on the way out, then the navigation goes on', async () => {
    const s = await onDialogsPage();
    await h.ok('browser_click', { ...s, ...button('Arm beforeunload') });
    await shows(s, 'beforeunload armed');
    const result = await h.ok<{ event: { dialog: { type: string } } }>('browser_action_and_wait', {
      ...s,
      target: { locator: { role: 'link', name: 'Leave this page' } },
      waitFor: { kind: 'dialog', type: 'beforeunload', accept: true },
    });
    expect(result.event.dialog.type).toBe('beforeunload');
    await h.ok('browser_wait', { ...s, url: '**/nav-target', timeoutMs: 5000 });
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('fails fast when a different dialog type opens than expected', async () => {
    const s = await onDialogsPage();
    const error = await h.err('browser_action_and_wait', {
      ...s,
      target: button('Show alert'),
      waitFor: { kind: 'dialog', type: 'confirm' },
    });
    expect(error.details).toMatchObject({
      reason: 'dialog_type_mismatch',
      expected: 'confirm',
      observed: 'alert',
    });
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('dismisses unexpected dialogs and reports them on the next action', async () => {
    const s = await onDialogsPage();
    const clicked = await h.ok<{ dialogs?: unknown[] }>('browser_click', { ...s, ...button('Show confirm') });
    expect(clicked.dialogs).toEqual([
      'confirm "Are you sure?" (dismissed; to accept it, repeat the action with browser_action_and_wait, waitFor: {kind: "dialog"})',
    ]);
    await shows(s, 'confirm: false');
    await h.ok('browser_navigate', { ...s, url: site.url('/timer-alert') });
    const waited = await h.ok<{ dialogs?: string[] }>('browser_wait', {
      ...s,
      text: 'after alert',
      timeoutMs: 5000,
    });
    expect(waited.dialogs).toEqual(['alert "surprise" (dismissed)']);
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });
});

describe('popups', () => {
  test('returns a popup as a new managed page, listed by browser_page_list', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/actions/popup') });
    const opened = await h.ok<{
      event: { type: string; page: { pageId: string; isDefault: boolean; openerPageId: string | null } };
    }>('browser_action_and_wait', {
      ...s,
      target: button('Open popup'),
      waitFor: { kind: 'popup' },
    });
    expect(opened.event.type).toBe('popup');
    expect(opened.event.page.isDefault).toBe(false);
    const popup = { sessionId: s.sessionId, pageId: opened.event.page.pageId };
    await h.ok('browser_click', { ...popup, ...button('Child button') });
    await shows(popup, 'child clicked');
    const tab = await h.ok<{ event: { page: { pageId: string; url: string } } }>('browser_action_and_wait', {
      ...s,
      target: { locator: { role: 'link', name: 'Open in new tab' } },
      waitFor: { kind: 'popup' },
    });
    expect(tab.event.page.url).toContain('/actions/popup-child?via=link');
    const pages = await h.ok<{ pages: Array<{ pageId: string }> }>('browser_page_list', {
      sessionId: s.sessionId,
    });
    expect(pages.pages.map((p) => p.pageId)).toEqual(
      expect.arrayContaining([s.pageId, popup.pageId, tab.event.page.pageId]),
    );
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('closes a popup past the page limit and says LIMIT_EXCEEDED', async () => {
    const limited = await McpHarness.start({ maxPages: 1 });
    try {
      const s = await limited.session();
      await limited.ok('browser_navigate', { ...s, url: site.url('/actions/popup') });
      const error = await limited.err('browser_action_and_wait', {
        ...s,
        target: button('Open popup'),
        waitFor: { kind: 'popup' },
      });
      expect(error.code).toBe('LIMIT_EXCEEDED');
      const pages = await limited.ok<{ pages: unknown[] }>('browser_page_list', { sessionId: s.sessionId });
      expect(pages.pages).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });
});

describe('cancellation', () => {
  test('an action cancelled while queued never touches the page', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/actions/buttons') });
    // Holds the queue until its own (short) deadline; the click queues behind it and is cancelled.
    const holding = h.err('browser_wait', { ...s, text: 'never shown', timeoutMs: 1500 });
    const controller = new AbortController();
    const cancelled = h.call(
      'browser_click',
      { ...s, ...button('Increment') },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    expect((await holding).code).toBe('OPERATION_TIMEOUT');
    await h.ok('browser_click', { ...s, ...button('Increment') });
    await shows(s, 'Count: 1');
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });
});
