/**
 * AgentBrowser's browser_screenshot (and code mode's page/locator.screenshot) shares the MCP tool's operation: one element by its
 * snapshot ref (found as the action tools find it, stale refs fail loudly), JPEG with a quality, and
 * the image handed to the model with the right MIME type.
 */
import { describe, expect, test } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { decodePng } from '../helpers/png-pixels.js';
import { ToolDriver } from './support/agent.js';

let site: FixtureServer;
let browser: AgentBrowser;
let t: ToolDriver;

type Shot = { width: number; height: number; bytes: number; mimeType: string; data: string };

// The file's site and AgentBrowser come from the shared fixtures.
test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  browser = agentBrowser;
  t = new ToolDriver(browser, { threadId: 'screenshots' });
});

describe('AgentBrowser browser_screenshot', () => {
  test('captures one element by ref, below the fold and inside a cross-origin iframe', async () => {
    await t.ok('browser_goto', { url: site.url('/shots/') });
    const badge = await t.ok<Shot>('browser_screenshot', { ref: await t.ref('button', 'Buy now') });
    const pixels = decodePng(Buffer.from(badge.data, 'base64'));
    expect([pixels.width, pixels.height]).toEqual([120, 40]);
    expect(pixels.at(60, 20)).toEqual([255, 0, 0]);
    expect(pixels.at(2, 37)).toEqual([255, 0, 0]);
    const { snapshot } = await t.ok<{ snapshot: string }>('browser_snapshot', {});
    const far = [...snapshot.matchAll(/\[img (@e\d+)[^\]]*\] Box/g)][1]?.[1] ?? '';
    const box = decodePng(Buffer.from((await t.ok<Shot>('browser_screenshot', { ref: far })).data, 'base64'));
    expect([box.width, box.height]).toEqual([70, 50]);
    expect(box.at(35, 25)).toEqual([0, 0, 255]);
  });

  test('returns a JPEG with a quality, and gives it to the model as image/jpeg', async () => {
    await t.ok('browser_goto', { url: site.url('/shop/') });
    const jpeg = await t.ok<Shot>('browser_screenshot', { type: 'jpeg', quality: 50 });
    expect(jpeg).toMatchObject({ width: 1280, height: 720, mimeType: 'image/jpeg' });
    expect([...Buffer.from(jpeg.data, 'base64').subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const content = t.tool('browser_screenshot').toModelContent(jpeg);
    expect(content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('JPEG') as unknown });
    expect(content[1]).toEqual({ type: 'image', data: jpeg.data, mimeType: 'image/jpeg' });
    // A quality alone means JPEG; a lower one is smaller.
    const low = await t.ok<Shot>('browser_screenshot', { quality: 5 });
    expect(low.mimeType).toBe('image/jpeg');
    expect(low.bytes).toBeLessThan(jpeg.bytes);
    expect((await t.ok<Shot>('browser_screenshot', {})).mimeType).toBe('image/png');
  });

  test('fails a stale ref loudly and refuses contradictory options; the next call works', async () => {
    await t.ok('browser_goto', { url: site.url('/shots/') });
    const ref = await t.ref('button', 'Buy now');
    await t.ok('browser_click', { ref: await t.ref('button', 'Remove badge') });
    expect((await t.fails('browser_screenshot', { ref })).code).toBe('STALE_ELEMENT_REFERENCE');
    expect((await t.fails('browser_screenshot', { ref: '@e1', fullPage: true })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await t.fails('browser_screenshot', { type: 'png', quality: 50 })).code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_screenshot', { quality: 0 })).code).toBe('INVALID_ARGUMENT');
    expect((await t.ok<Shot>('browser_screenshot', {})).width).toBe(1280);
  });

  test("browser_run (code mode) attaches a script's screenshots as images for the model", async () => {
    await t.ok('browser_goto', { url: site.url('/shots/') });
    const out = await t.ok<{
      value: { width: number; mimeType: string };
      images?: Array<{ data: string; mimeType: string }>;
    }>('browser_run', {
      code: "return await page.locator('#badge').screenshot({ type: 'jpeg', quality: 70 });",
    });
    expect(out.value).toMatchObject({ image: 1, width: 120, height: 40, mimeType: 'image/jpeg' });
    expect(out.images).toHaveLength(1);
    const content = t.tool('browser_run').toModelContent(out);
    expect(content[1]).toEqual({ type: 'image', data: out.images?.[0]?.data, mimeType: 'image/jpeg' });
    // The image is not repeated as base64 in the text the model reads.
    expect(content[0]?.type === 'text' ? content[0].text.length : 0).toBeLessThan(1000);
  });
});
