/**
 * Element screenshots by snapshot ref or semantic locator (found exactly as the interaction tools
 * find their targets), in the main frame and inside same- and cross-origin iframes, and JPEG with a
 * quality option, through the MCP client against /shots/.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { decodePng } from '../helpers/png-pixels.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

type Rgb = [number, number, number];
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 160, 0];
const BLUE: Rgb = [0, 0, 255];

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  screenshotMaxDimension: 3000,
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

function imageOf(result: CallToolResult): { data: Buffer; mimeType: string } {
  const block = result.content.find((c) => c.type === 'image');
  if (!block || block.type !== 'image') throw new Error('no image block');
  return { data: Buffer.from(block.data, 'base64'), mimeType: block.mimeType };
}

async function shoot(args: Record<string, unknown>): Promise<{ data: Buffer; mimeType: string }> {
  const result = await h.call('browser_screenshot', { ...s, ...args });
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  return imageOf(result);
}

/** The whole image is one colour (inset by 2 px against anti-aliased edges), so the right area was captured. */
function expectSolid(png: Buffer, size: { width: number; height: number }, colour: Rgb): void {
  const pixels = decodePng(png);
  expect({ width: pixels.width, height: pixels.height }).toEqual(size);
  for (const [x, y] of [
    [2, 2],
    [pixels.width - 3, 2],
    [Math.floor(pixels.width / 2), Math.floor(pixels.height / 2)],
    [2, pixels.height - 3],
    [pixels.width - 3, pixels.height - 3],
  ] as const) {
    expect(pixels.at(x, y), `pixel ${x},${y}`).toEqual(colour);
  }
}

async function refOf(pattern: RegExp, nth = 0): Promise<string> {
  const { snapshot } = await h.ok<{ snapshot: string }>('browser_snapshot', s);
  const refs = [...snapshot.matchAll(new RegExp(pattern.source, 'g'))].map((m) => m[1] ?? '');
  const ref = refs[nth];
  if (!ref) throw new Error(`no ref for ${pattern.source} in:\n${snapshot}`);
  return ref;
}

describe('element screenshots by ref or locator', () => {
  test.beforeAll(async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/shots/') });
  });

  test('captures a main-frame element below the fold by ref, by locator and by CSS', async () => {
    const ref = await refOf(/\[button (@e\d+)[^\]]*\] Buy now/);
    const size = { width: 120, height: 40 };
    expectSolid((await shoot({ capture: { kind: 'element', ref } })).data, size, RED);
    const locator = { role: 'button', name: 'Buy now' };
    expectSolid((await shoot({ capture: { kind: 'element', locator } })).data, size, RED);
    expectSolid((await shoot({ capture: { kind: 'element', css: '#badge' } })).data, size, RED);
  });

  test('captures an element scrolled out of view inside a same-origin iframe, by locator', async () => {
    const locator = {
      role: 'img',
      name: 'Box',
      frame: { kind: 'iframe', chain: [{ css: 'iframe[title=Near]' }] },
    };
    expectSolid(
      (await shoot({ capture: { kind: 'element', locator } })).data,
      { width: 90, height: 30 },
      GREEN,
    );
  });

  test('captures an element inside a cross-origin iframe, by ref', async () => {
    // The Near frame's box comes first in the snapshot, the cross-origin Far frame's second.
    const ref = await refOf(/\[img (@e\d+)[^\]]*\] Box/, 1);
    expectSolid((await shoot({ capture: { kind: 'element', ref } })).data, { width: 70, height: 50 }, BLUE);
  });

  test('fails a gone ref STALE_ELEMENT_REFERENCE and a locator that matches nothing ELEMENT_NOT_FOUND', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/shots/') });
    const ref = await refOf(/\[button (@e\d+)[^\]]*\] Buy now/);
    await h.ok('browser_click', { ...s, locator: { role: 'button', name: 'Remove badge' } });
    const stale = await h.err('browser_screenshot', { ...s, capture: { kind: 'element', ref } });
    expect(stale).toMatchObject({ code: 'STALE_ELEMENT_REFERENCE', details: { field: 'capture.ref' } });
    // Not a timeout: the short appear window, well inside a long deadline.
    const missing = await h.err('browser_screenshot', {
      ...s,
      capture: { kind: 'element', locator: { role: 'button', name: 'Buy now' } },
      timeoutMs: 60_000,
    });
    expect(missing).toMatchObject({ code: 'ELEMENT_NOT_FOUND', details: { field: 'capture.locator' } });
    const css = await h.err('browser_screenshot', { ...s, capture: { kind: 'element', css: '#badge' } });
    expect(css).toMatchObject({ code: 'ELEMENT_NOT_FOUND', details: { field: 'capture.css' } });
    const hidden = await h.err('browser_screenshot', { ...s, capture: { kind: 'element', css: '#gone' } });
    expect(hidden.code).toBe('ELEMENT_NOT_INTERACTABLE');
    expect(JSON.stringify(hidden)).not.toContain('Hidden words');
    // The session keeps working.
    expect((await shoot({})).mimeType).toBe('image/png');
  });

  test('refuses an element capture with none or more than one of ref, locator and css', async () => {
    for (const capture of [
      { kind: 'element' },
      { kind: 'element', css: '#badge', ref: '@e1' },
      { kind: 'element', ref: '@e1', locator: { role: 'button' } },
    ]) {
      const error = await h.err('browser_screenshot', { ...s, capture });
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'capture' } });
    }
    const badSelector = await h.err('browser_screenshot', { ...s, capture: { kind: 'element', css: 'a[[' } });
    expect(badSelector.code).toBe('INVALID_ARGUMENT');
  });
});

describe('JPEG', () => {
  test.beforeAll(async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/shop/') });
  });

  test('returns a JPEG with its MIME type in the result and the image block; PNG stays the default', async () => {
    const result = await h.call('browser_screenshot', { ...s, format: { type: 'jpeg', quality: 40 } });
    expect(result.structuredContent).toMatchObject({
      width: 1280,
      height: 720,
      mimeType: 'image/jpeg',
      mode: 'viewport',
    });
    const jpeg = imageOf(result);
    expect(jpeg.mimeType).toBe('image/jpeg');
    expect([...jpeg.data.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(result.structuredContent?.bytes).toBe(jpeg.data.length);
    const png = await h.call('browser_screenshot', s);
    expect(png.structuredContent?.mimeType).toBe('image/png');
    expect(imageOf(png).data.subarray(1, 4).toString()).toBe('PNG');
  });

  test('applies the quality: a lower quality gives a smaller image', async () => {
    const low = await shoot({ format: { type: 'jpeg', quality: 5 } });
    const high = await shoot({ format: { type: 'jpeg', quality: 100 } });
    expect(low.data.length).toBeLessThan(high.data.length);
  });

  test('captures an element by ref as JPEG', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/shots/') });
    const ref = await refOf(/\[button (@e\d+)[^\]]*\] Buy now/);
    const result = await h.call('browser_screenshot', {
      ...s,
      capture: { kind: 'element', ref },
      format: { type: 'jpeg' },
    });
    expect(result.structuredContent).toMatchObject({ width: 120, height: 40, mimeType: 'image/jpeg' });
  });

  test('scales a full page over the limits down as JPEG too, and says so', async () => {
    site.route('/shots/tall', (_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        '<!doctype html><title>Tall</title><body style="margin:0"><div style="height:7000px;background:linear-gradient(red,blue)">top</div>',
      );
    });
    await h.ok('browser_navigate', { ...s, url: site.url('/shots/tall') });
    const result = await h.call('browser_screenshot', {
      ...s,
      capture: { kind: 'fullPage' },
      format: { type: 'jpeg', quality: 60 },
    });
    const shot = result.structuredContent as {
      width: number;
      height: number;
      scale?: number;
      mimeType: string;
    };
    expect(shot.mimeType).toBe('image/jpeg');
    expect(shot.scale).toBeGreaterThan(0.25);
    expect(shot.scale).toBeLessThan(1);
    expect(Math.max(shot.width, shot.height)).toBeLessThanOrEqual(3000);
    expect(imageOf(result).mimeType).toBe('image/jpeg');
  });

  test('refuses a quality outside 1-100 or with PNG, naming the field', async () => {
    for (const format of [{ type: 'jpeg', quality: 0 }, { type: 'jpeg', quality: 101 }, { type: 'gif' }]) {
      const error = await h.err('browser_screenshot', { ...s, format });
      expect(error.code).toBe('INVALID_ARGUMENT');
    }
    const png = await h.err('browser_screenshot', { ...s, format: { type: 'png', quality: 50 } });
    expect(png).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'format.quality' } });
  });
});
