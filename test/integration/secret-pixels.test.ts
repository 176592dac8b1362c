/**
 * Secrets in pixels: a `--secrets` value entered into a plain text field was drawn as text,
 * so every screenshot, trace filmstrip, recording and live frame of the page showed it (images are not
 * scanned). A field that receives a secret now draws its text as discs, as a password field does,
 * from before the first character is entered. Proved by pixels: two fields holding two different
 * secrets of one length look the same; two fields holding two plain values of that length do not.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test as fixtureTest } from './support/fixtures.js';

const KEY_A = 'abcdefghij';
const KEY_B = 'WXYZ987654';

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, () => ({ secrets: { KEY_A, KEY_B } }));

test.beforeAll(({ site }) => {
  const field = 'style="font:20px monospace;width:320px;height:32px;border:1px solid #888;padding:2px"';
  site.route('/pixels/form', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><title>Keys</title>
<input id="a" aria-label="A" ${field}><input id="b" aria-label="B" ${field}>
<input id="c" aria-label="C" ${field}><input id="d" aria-label="D" ${field}>
<textarea id="e" aria-label="E" ${field}></textarea><textarea id="f" aria-label="F" ${field}></textarea>`);
  });
});

function imageOf(result: CallToolResult): string {
  const image = result.content.find((part) => part.type === 'image');
  if (!image || image.type !== 'image')
    throw new Error(`the screenshot has no image: ${JSON.stringify(result.content).slice(0, 300)}`);
  return image.data;
}

test('fields that received a secret draw it as discs in screenshots; plain fields draw their text', async ({
  harness,
  session,
  site,
}) => {
  await harness.ok('browser_navigate', { ...session, url: site.url('/pixels/form') });
  await harness.ok('browser_fill', { ...session, locator: { label: 'A' }, value: '{{secret:KEY_A}}' });
  await harness.ok('browser_fill', { ...session, locator: { label: 'B' }, value: '{{secret:KEY_B}}' });
  await harness.ok('browser_fill', { ...session, locator: { label: 'C' }, value: KEY_A });
  await harness.ok('browser_fill', { ...session, locator: { label: 'D' }, value: KEY_B });
  // Typing into the focused field (no target) masks it too.
  await harness.ok('browser_click', { ...session, locator: { label: 'E' } });
  await harness.ok('browser_type', { ...session, text: '{{secret:KEY_A}}' });
  await harness.ok('browser_click', { ...session, locator: { label: 'F' } });
  await harness.ok('browser_type', { ...session, text: '{{secret:KEY_B}}' });
  // No caret in the pictures: nothing focused.
  await harness.mesh
    .getSession(session.sessionId)
    .getPage(session.pageId)
    .page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  const shot = async (css: string) =>
    imageOf(
      await harness.call('browser_screenshot', {
        ...session,
        format: { type: 'png' },
        capture: { kind: 'element', css },
      }),
    );
  const [a, b, c, d, e, f] = await Promise.all(['#a', '#b', '#c', '#d', '#e', '#f'].map(shot));
  expect(c).not.toBe(d);
  expect(a).toBe(b);
  expect(e).toBe(f);
  // The fields still hold the secrets (the page's own submit sends them).
  const values = await harness.mesh
    .getSession(session.sessionId)
    .getPage(session.pageId)
    .page.evaluate(() => ['#a', '#e'].map((css) => document.querySelector<HTMLInputElement>(css)!.value));
  expect(values).toEqual([KEY_A, KEY_A]);
});
