/**
 * Code mode's page.screenshot() and locator.screenshot(): the same operation as
 * browser_screenshot (element found as every facade call finds it, JPEG with a quality); the image
 * is attached to the browser_run result as MCP image content and the script gets its description.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import { decodePng } from '../helpers/png-pixels.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

function imagesOf(result: CallToolResult): Array<{ data: Buffer; mimeType: string }> {
  return result.content.flatMap((c) =>
    c.type === 'image' ? [{ data: Buffer.from(c.data, 'base64'), mimeType: c.mimeType }] : [],
  );
}

function codeOf(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  return (JSON.parse(textOf(result)) as { error: { code: string } }).error.code;
}

async function run(code: string): Promise<CallToolResult> {
  return h.call('browser_run', { ...s, code, timeoutMs: 45_000 });
}

describe('code mode screenshots', () => {
  test('attaches page and locator screenshots to the result, PNG or JPEG, and returns their description', async () => {
    const result = await run(`
      await page.goto(${JSON.stringify(site.url('/shots/'))});
      const badge = await page.getByRole('button', { name: 'Buy now' }).screenshot();
      const view = await page.screenshot({ type: 'jpeg', quality: 40 });
      return { badge, view };
    `);
    expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
    const value = (result.structuredContent as { value: Record<string, Record<string, unknown>> }).value;
    expect(value['badge']).toMatchObject({ image: 1, width: 120, height: 40, mimeType: 'image/png' });
    expect(value['view']).toMatchObject({ image: 2, width: 1280, height: 720, mimeType: 'image/jpeg' });
    const [badge, view] = imagesOf(result);
    expect(badge?.mimeType).toBe('image/png');
    const pixels = decodePng(badge?.data ?? Buffer.alloc(0));
    expect([pixels.width, pixels.height]).toEqual([120, 40]);
    expect(pixels.at(60, 20)).toEqual([255, 0, 0]);
    expect(view?.mimeType).toBe('image/jpeg');
    expect([...(view?.data ?? Buffer.alloc(0)).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    // The base64 never rides in the JSON value or the text.
    expect(JSON.stringify(result.structuredContent).length).toBeLessThan(2000);
  });

  test('captures a snapshot ref, and fails it STALE_ELEMENT_REFERENCE once the element is gone', async () => {
    const ok = await run(`
      await page.goto(${JSON.stringify(site.url('/shots/'))});
      const snap = await page.snapshot();
      const ref = /\\[button (@e\\d+)[^\\]]*\\] Buy now/.exec(snap)[1];
      const shot = await page.ref(ref).screenshot({ type: 'jpeg' });
      await page.getByRole('button', { name: 'Remove badge' }).click();
      try {
        await page.ref(ref).screenshot();
        return { shot, stale: 'no error' };
      } catch (error) {
        return { shot, stale: error.code };
      }
    `);
    expect(ok.isError).toBeFalsy();
    const value = (ok.structuredContent as { value: { shot: Record<string, unknown>; stale: string } }).value;
    expect(value.shot).toMatchObject({ width: 120, height: 40, mimeType: 'image/jpeg' });
    expect(value.stale).toBe('STALE_ELEMENT_REFERENCE');
    expect(imagesOf(ok)).toHaveLength(1);
  });

  test('a locator that matches nothing fails ELEMENT_NOT_FOUND, not a timeout', async () => {
    const result = await run(`
      await page.goto(${JSON.stringify(site.url('/shots/'))});
      await page.locator('#nothing-here').screenshot();
    `);
    expect(codeOf(result)).toBe('ELEMENT_NOT_FOUND');
    expect(imagesOf(result)).toHaveLength(0);
  });

  test('bounds the images one run returns; a failed run returns none', async () => {
    const result = await run(`
      for (let i = 0; i < 4; i++) await page.screenshot({ type: 'jpeg', quality: 10 });
    `);
    expect(codeOf(result)).toBe('LIMIT_EXCEEDED');
    expect(imagesOf(result)).toHaveLength(0);
    // The session keeps working.
    const after = await run(`return (await page.screenshot()).mimeType`);
    expect((after.structuredContent as { value: string }).value).toBe('image/png');
    expect(imagesOf(after)).toHaveLength(1);
  });
});
