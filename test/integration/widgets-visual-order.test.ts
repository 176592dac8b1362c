/**
 * A virtualized editor whose line elements are out of DOM order (absolutely positioned)
 * reads in visual order in the snapshot and in visible text, and the editor's model text (its
 * accessible textbox value) keeps its line breaks.
 */
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's site and harness come from the shared fixture; its tests share one session.
test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/widgets/editor') });
});

const inOrder = (text: string, parts: string[]): void => {
  const at = parts.map((p) => text.lastIndexOf(p));
  expect(
    at.every((i) => i >= 0),
    text,
  ).toBe(true);
  expect(
    [...at].sort((a, b) => a - b),
    text,
  ).toEqual(at);
};

describe('lines in visual order', () => {
  test('the snapshot lists positioned lines top to bottom', async () => {
    const { snapshot } = await h.ok<{ snapshot: string }>('browser_snapshot', s);
    const lines = snapshot.split('\n').filter((l) => /^\s+(alpha|beta|gamma)\(\);$/.test(l));
    expect(lines.map((l) => l.trim())).toEqual(['alpha();', 'beta();', 'gamma();']);
  });

  test('visible text reads them top to bottom', async () => {
    const { text } = await h.ok<{ text: string }>('browser_visible_text', s);
    inOrder(text, ['alpha();', 'beta();', 'gamma();']);
  });

  test("the editor's textbox value keeps the model's line breaks", async () => {
    const { snapshot } = await h.ok<{ snapshot: string }>('browser_snapshot', {
      ...s,
      interactiveOnly: true,
    });
    expect(snapshot).toContain('[textbox @e');
    expect(snapshot).toContain('value="alpha();\\nbeta();\\ngamma();"');
  });
});
