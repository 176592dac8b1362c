/**
 * The parts of real widgets an agent picks, on pages built on real libraries, over MCP:
 * - cells of an interactive grid (role grid: FullCalendar's month) each get a ref, and an item in
 *   a cell (an event) one of its own: a day is picked by its ref, not by an invented `{ text }`
 *   locator that only works while the text is unique. The row line says the role once; cells of a
 *   plain table stay without refs.
 * - a contenteditable editor shows one entry per paragraph with a ref and its whole text, whatever
 *   inline marks it holds, the same in Quill (a plain editable div) and MediumEditor (role textbox,
 *   whose value used to hold every paragraph joined by blank lines).
 */
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const snap = async (args: Record<string, unknown> = {}): Promise<string> =>
  (await h.ok<{ snapshot: string }>('browser_snapshot', { ...s, ...args })).snapshot;

describe('grid cells', () => {
  test('every day of a FullCalendar month has a ref that reads that day', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/reallibs/fullcalendar?state=month') });
    await expect.poll(() => snap(), { timeout: 20_000 }).toContain('December 2026');
    const text = await snap();
    // A row of plain days on one line, each with its ref.
    const row = /\[row\] @e\d+ November 29, 2026 \| @e\d+ November 30, 2026 \| @e\d+ December 1, 2026/;
    expect(text).toMatch(row);
    // A day holding an event: the day's ref and name, then the event as an item with a ref of its own.
    const day = /\| (@e\d+) December 7, 2026 \[clickable (@e\d+)\] Standup \|/.exec(text);
    expect(day, text).not.toBeNull();
    const ref = day?.[1] ?? '';
    const read = await h.ok<{ value: unknown }>('browser_run', {
      ...s,
      code: `return await page.ref(${JSON.stringify(ref)}).textContent();`,
    });
    expect(String(read.value)).toContain('Standup');
    // The event's ref is FullCalendar's event element.
    const chip = await h.ok<{ value: unknown }>('browser_run', {
      ...s,
      code: `return await page.ref(${JSON.stringify(day?.[2] ?? '')}).getAttribute('class');`,
    });
    expect(String(chip.value)).toContain('fc-event');
    // The interactive view keeps them (without the rows, as it keeps no structure): they are what
    // an agent acts on in a grid.
    const inter = await snap({ interactiveOnly: true });
    expect(inter).toMatch(/\[gridcell\] @e\d+ November 29, 2026 @e\d+ November 30, 2026/);
    expect(inter).toContain(`[gridcell ${ref}] December 7, 2026`);
    expect(inter).toContain(`[clickable ${day?.[2] ?? ''}] Standup`);
    // A ref from the scoped snapshot of one day acts too.
    const scoped = await snap({ scope: { ref } });
    expect(scoped).toContain('Standup');
  });

  test('cells of a plain data table stay without refs', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/large') });
    const text = await snap({ maxChars: 1_000_000, maxBytes: 4_194_304 });
    const rows = text.split('\n').filter((line) => /^\s*\[row\]/.test(line));
    expect(rows.length).toBeGreaterThan(0);
    for (const line of rows.slice(0, 20)) expect(line).not.toMatch(/@e\d+ [^|]*\|/);
  });
});

describe('editor paragraphs', () => {
  test('a Quill editor lists each paragraph with a ref; typing at one changes that paragraph', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/reallibs/quill?state=base') });
    await expect.poll(() => snap(), { timeout: 20_000 }).toContain('[paragraph');
    const text = await snap();
    const first = /\[paragraph (@e\d+)\] First paragraph\.$/m.exec(text);
    const second = /\[paragraph (@e\d+)\] Second bold paragraph\.$/m.exec(text);
    expect(first, text).not.toBeNull();
    expect(second, text).not.toBeNull();
    // The bold word is part of its paragraph, not a clickable of its own.
    expect(text).not.toContain('[clickable');
    const ref = second?.[1] ?? '';
    await h.ok('browser_run', {
      ...s,
      code: `await page.ref(${JSON.stringify(ref)}).click(); await page.keyboard.press('End'); await page.keyboard.type(' More.');`,
    });
    await expect
      .poll(() => snap(), { timeout: 10_000 })
      .toMatch(/\[paragraph @e\d+\] Second bold paragraph\. More\.$/m);
    expect(await snap()).toMatch(/\[paragraph @e\d+\] First paragraph\.$/m);
  });

  test('MediumEditor (role textbox) shows its paragraphs the same way, not a joined value', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/reallibs/medium-editor?state=base') });
    await expect.poll(() => snap(), { timeout: 20_000 }).toContain('[paragraph');
    const text = await snap();
    expect(text).toMatch(
      /\[textbox @e\d+\] Letter body\n\s+\[paragraph @e\d+\] Dear team,\n\s+\[paragraph @e\d+\] The launch is on Friday\.$/m,
    );
    expect(text).not.toContain('value=');
  });
});
