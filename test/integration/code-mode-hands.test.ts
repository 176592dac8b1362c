import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };
const base = mkdtempSync(join(tmpdir(), 'bm-code-hands-'));
const root = join(base, 'root');
mkdirSync(root);
writeFileSync(join(root, 'disk.txt'), 'on disk');
writeFileSync(join(base, 'secret.txt'), 'secret');

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['code'],
  uploadRoots: [root],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const run = <T>(code: string) => h.ok<{ value: T }>('browser_run', { ...s, code });
const probe = (selector: string, lines: number) =>
  h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', async ({ page }) => {
    await page.page.waitForFunction(
      ([sel, n]) =>
        (document.querySelector(sel as string)?.textContent ?? '').trim().split('\n').length >= (n as number),
      [selector, lines] as const,
      { timeout: 5000 },
    );
    return ((await page.page.textContent(selector)) ?? '').trim().split('\n');
  });

describe('code mode: page.mouse, page.setViewportSize, locator.setInputFiles', () => {
  test('clicks, double-clicks and drags by coordinates, and resizes the viewport', async () => {
    const out = await run<string>(`
      await page.goto(${JSON.stringify(site.url('/files/pointer'))});
      await page.mouse.click(50, 60);
      await page.mouse.dblclick(10, 20);
      await page.mouse.move(5, 5);
      await page.mouse.down();
      await page.mouse.move(100, 90, { steps: 3 });
      await page.mouse.up();
      await page.setViewportSize({ width: 520, height: 410 });
      return await page.locator('#viewport').textContent();
    `);
    expect(out.value).toBe('520x410');
    const lines = await probe('#log', 11);
    expect(lines.slice(0, 3)).toEqual(['mousedown 50,60 0 1', 'mouseup 50,60 0 1', 'click 50,60 0 1']);
    expect(lines).toContain('dblclick 10,20 0 2');
    expect(lines).toContain('mousedown 5,5 0 1');
    expect(lines).toContain('mouseup 100,90 0 1');
  });

  test('uploads by content and by a path under the roots; refuses a path outside, by code', async () => {
    await run(`
      await page.goto(${JSON.stringify(site.url('/files/upload'))});
      await page.getByLabel('Single file').setInputFiles({ name: 'hi.txt', mimeType: 'text/plain', buffer: 'aGkgdGhlcmU=' });
      await page.getByLabel('Many files').setInputFiles([${JSON.stringify(join(root, 'disk.txt'))}]);
      return 1;
    `);
    expect((await probe('#out', 2)).sort()).toEqual([
      'many: disk.txt 7 text/plain on disk',
      'single: hi.txt 8 text/plain hi there',
    ]);
    const error = await h.err('browser_run', {
      ...s,
      code: `await page.getByLabel('Single file').setInputFiles(${JSON.stringify(join(base, 'secret.txt'))});`,
    });
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(JSON.stringify(error)).not.toContain('secret.txt');
    // Bad facade arguments are INVALID_ARGUMENT naming the member, as on every other face.
    const bad = await h.err('browser_run', { ...s, code: 'await page.mouse.click(-1, 5);' });
    expect(bad).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(bad.message).toContain('mouse.click');
    const size = await h.err('browser_run', {
      ...s,
      code: 'await page.setViewportSize({ width: 5, height: 5 });',
    });
    expect(size).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(size.message).toContain('setViewportSize');
    // A point outside the viewport is refused by the operation, by code.
    const outside = await h.err('browser_run', { ...s, code: 'await page.mouse.click(5000, 5);' });
    expect(outside).toMatchObject({ code: 'INVALID_ARGUMENT', details: { hostCode: 'INVALID_ARGUMENT' } });
  });
});
