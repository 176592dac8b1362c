/**
 * Selecting text on AgentBrowser: browser_select_text { ref | selector, text, occurrence } (a view of browser_focus
 * { selectText }) selects text by its content in a contenteditable and a textarea, and refuses text
 * that is not there with a structured error; the thread keeps working.
 */
import { describe, expect, test } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { ToolDriver } from './support/agent.js';

let site: FixtureServer;
let browser: AgentBrowser;
let t: ToolDriver;

// The file's site and AgentBrowser come from the shared fixtures.
test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  browser = agentBrowser;
  t = new ToolDriver(browser, { threadId: 'select-text' });
});

/** What the page reads back: the document selection, and the textarea's selected range. */
async function selection(): Promise<{ text: string; area: string }> {
  const { value } = await t.ok<{ value: { text: string; area: string } }>('browser_evaluate', {
    script: `(() => {
      const area = document.getElementById('area');
      return { text: String(getSelection()), area: area.value.slice(area.selectionStart, area.selectionEnd) };
    })()`,
    returnValue: true,
  });
  return value;
}

describe('AgentBrowser browser_select_text', () => {
  test('selects a word of a contenteditable by its text; Control+b makes it bold', async () => {
    await t.ok('browser_goto', { url: site.url('/widgets/editable') });
    // The editor holds too much text for a clickable ref (a snapshot gap): a CSS selector reaches it.
    const note = { selector: '#para' };
    await t.ok('browser_select_text', { ...note, text: 'brown', occurrence: 2 });
    expect((await selection()).text).toBe('brown');
    await t.ok('browser_select_text', { ...note, text: 'fox' });
    expect((await selection()).text).toBe('fox');
    await t.ok('browser_press', { key: 'Control+b' });
    const { value } = await t.ok<{ value: string[] }>('browser_evaluate', {
      script: `[...document.querySelectorAll('#para b')].map((b) => b.textContent)`,
      returnValue: true,
    });
    expect(value).toEqual(['fox']);
  });

  test('selects a range of a textarea value', async () => {
    await t.ok('browser_goto', { url: site.url('/widgets/editable') });
    await t.ok('browser_select_text', { ref: await t.ref('textbox', 'Draft'), text: 'two', occurrence: 2 });
    expect((await selection()).area).toBe('two');
  });

  test('refuses missing text, a bad occurrence, ref with selector and unknown fields; the thread keeps working', async () => {
    await t.ok('browser_goto', { url: site.url('/widgets/editable') });
    const note = { selector: '#para' };
    const draft = await t.ref('textbox', 'Draft');
    const missing = await t.fails('browser_select_text', { ...note, text: 'cat' });
    expect(missing.code).toBe('INVALID_ARGUMENT');
    expect(missing.message).toContain('selectText');
    const third = await t.fails('browser_select_text', { ...note, text: 'brown', occurrence: 3 });
    expect(third.code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_select_text', { ...note, text: '' })).code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_select_text', { ...note, ref: draft, text: 'two' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await t.fails('browser_select_text', { text: 'two' })).code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_select_text', { ...note, selectText: 'fox' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    await t.ok('browser_select_text', { ...note, text: 'quick' });
    expect((await selection()).text).toBe('quick');
  });
});
