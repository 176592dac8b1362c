/**
 * Reading one frame: browser_visible_text and browser_snapshot scoped to an element inside a
 * same-origin, a cross-origin and a nested (cross-origin inside same-origin) iframe, on a page built
 * on a real library (GitHub's <tab-container>), over MCP. A snapshot scoped by a ref taken from the
 * full snapshot shows the element's lines, as in the main document.
 */
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';
import { FRAMES, frame } from './support/frame-chains.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

async function openFrames(): Promise<void> {
  await h.ok('browser_navigate', { ...s, url: site.url('/reallibs/frames?lib=tabs&state=second') });
}

/** Polled until the frame's library has started and selected its second tab. */
async function frameText(chain: string[]): Promise<string> {
  const read = async (): Promise<string> =>
    (
      await h.ok<{ text: string }>('browser_visible_text', {
        ...s,
        scope: { locator: { css: 'body', frame: frame(chain) } },
      })
    ).text;
  await expect.poll(read, { timeout: 20_000 }).toContain('Issues panel');
  return read();
}

describe('scoped to an element inside a frame', () => {
  for (const [kind, chain] of FRAMES) {
    test(`browser_visible_text reads the ${kind} frame alone`, async () => {
      await openFrames();
      const text = await frameText(chain);
      expect(text).toContain('Repository');
      expect(text).not.toContain('Same origin');
      expect(text).not.toContain('Outer frame');
    });

    test(`browser_snapshot scoped by a ref from the full snapshot, in the ${kind} frame`, async () => {
      await openFrames();
      await frameText(chain);
      const scope = { locator: { role: 'tablist', frame: frame(chain) } };
      const full = await h.ok<{ snapshot: string }>('browser_snapshot', s);
      const scoped = await h.ok<{ snapshot: string; empty?: boolean }>('browser_snapshot', { ...s, scope });
      expect(scoped.empty).toBeUndefined();
      expect(scoped.snapshot.split('\n')[0] ?? '').toMatch(/^\[tablist/);
      // The selected tab (also focused when its frame took the focus last: the frames race for it).
      const selected = /\[tab (@e\d+) selected[^\]]*\] Issues/;
      const issues = selected.exec(scoped.snapshot)?.[1] ?? '';
      expect(issues).toMatch(/^@e\d+$/);
      // A ref of a tab inside this frame, as the full snapshot gave it, scopes to the same lines.
      expect(full.snapshot).toMatch(new RegExp(`\\[tab ${issues} selected[^\\]]*\\] Issues`));
      const byRef = await h.ok<{ snapshot: string; empty?: boolean }>('browser_snapshot', {
        ...s,
        scope: { ref: issues },
      });
      expect(byRef.empty).toBeUndefined();
      expect(selected.exec(byRef.snapshot)?.[1]).toBe(issues);
    });
  }

  test('a scope with both a ref and a locator is refused and the session keeps working', async () => {
    await openFrames();
    const error = await h.err('browser_visible_text', {
      ...s,
      scope: { ref: '@e1', locator: { css: 'body' } },
    });
    expect(error.code).toBe('INVALID_ARGUMENT');
    const missing = await h.err('browser_visible_text', {
      ...s,
      scope: { locator: { css: '#nothing-here', frame: frame(['iframe[title="Cross origin"]']) } },
    });
    expect(missing.code).toBe('ELEMENT_NOT_FOUND');
    const read = await h.ok<{ text: string }>('browser_visible_text', s);
    expect(read.text).toContain('Frames: tabs');
  });
});
