import type { Config } from '../../src/config/load.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  screenshotMaxDimension: 3000,
  visibleTextMaxChars: 5000,
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

function image(result: CallToolResult): { data: string; mimeType: string } | undefined {
  const block = result.content.find((c) => c.type === 'image');
  return block && block.type === 'image' ? { data: block.data, mimeType: block.mimeType } : undefined;
}

describe('navigation', () => {
  test('returns a small result: url, title and status only', async () => {
    const result = await h.call('browser_navigate', { ...s, url: site.url('/large') });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ url: site.url('/large'), status: 200 });
    expect(Object.keys(result.structuredContent ?? {}).sort()).toEqual([
      'loadState',
      'operationId',
      'status',
      'title',
      'url',
    ]);
    expect(textOf(result).length).toBeLessThan(200);
  });

  test('reports HTTP status and follows redirects', async () => {
    expect(
      (await h.ok<{ status: number }>('browser_navigate', { ...s, url: site.url('/status/404') })).status,
    ).toBe(404);
    const redirected = await h.ok<{ url: string; status: number }>('browser_navigate', {
      ...s,
      url: site.url('/redirect?to=/quiet'),
    });
    expect(redirected.url).toBe(site.url('/quiet'));
  });

  test('refuses schemes other than http(s), data: and about:blank, and relative URLs, naming url', async () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'chrome://settings', '/relative']) {
      const error = await h.err('browser_navigate', { ...s, url });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details?.field).toBe('url');
    }
  });

  test('reports a refused connection as NAVIGATION_FAILED without the URL', async () => {
    const error = await h.err('browser_navigate', { ...s, url: `${site.refusedUrl}?token=secret123` });
    expect(error.code).toBe('NAVIGATION_FAILED');
    expect(error.message).not.toContain('secret123');
  });

  test('goes back, forward and reloads', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/title?t=One') });
    await h.ok('browser_navigate', { ...s, url: site.url('/title?t=Two') });
    expect(await h.ok('browser_back', s)).toMatchObject({ title: 'One', moved: true });
    expect(await h.ok('browser_forward', s)).toMatchObject({ title: 'Two', moved: true });
    expect(await h.ok('browser_reload', s)).toMatchObject({ title: 'Two' });
    expect(await h.ok('browser_get_url', s)).toMatchObject({ url: site.url('/title?t=Two') });
    expect(await h.ok('browser_get_title', s)).toMatchObject({ title: 'Two' });
  });
});

describe('visible text', () => {
  test('returns rendered text without hidden content', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/snapshot/hidden') });
    const result = await h.ok<{ text: string; truncated: boolean }>('browser_visible_text', s);
    expect(result.truncated).toBe(false);
    expect(result.text).toContain('Visible button');
  });

  test('bounds the text and says it was cut, never splitting a character', async () => {
    site.route('/emoji', (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<title>emoji</title><p>${'😀漢'.repeat(4000)}</p>`);
    });
    await h.ok('browser_navigate', { ...s, url: site.url('/emoji') });
    const result = await h.ok<{
      text: string;
      chars: number;
      truncated: boolean;
      truncationReason: string;
      originalChars: number;
    }>('browser_visible_text', { ...s, maxChars: 7 });
    expect(result).toMatchObject({
      text: '😀漢😀漢😀漢😀',
      chars: 7,
      truncated: true,
      truncationReason: 'maxChars',
      originalChars: 8000,
    });
    // The text block's first line says how it was cut; a whole text's line carries only its size.
    const cut = await h.call('browser_visible_text', { ...s, maxChars: 7 });
    expect(JSON.parse(textOf(cut).split('\n')[0] ?? '')).toMatchObject({
      truncated: true,
      truncationReason: 'maxChars',
      originalChars: 8000,
    });
    await h.ok('browser_navigate', { ...s, url: 'data:text/html,<p>Short text</p>' });
    const whole = await h.call('browser_visible_text', s);
    expect(textOf(whole)).toBe('{"chars":10,"truncated":false}\nShort text');
    expect(whole.structuredContent).toMatchObject({ originalChars: 10, truncationReason: null });
    await h.ok('browser_navigate', { ...s, url: site.url('/emoji') });
    const capped = await h.ok<{ chars: number; truncated: boolean }>('browser_visible_text', s);
    expect(capped).toMatchObject({ chars: 5000, truncated: true });
    const error = await h.err('browser_visible_text', { ...s, maxChars: 0 });
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'maxChars' } });
  });
});

describe('screenshots', () => {
  test('captures the viewport as MCP image content with PNG metadata', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/shop/') });
    const result = await h.call('browser_screenshot', s);
    expect(result.structuredContent).toMatchObject({
      width: 1280,
      height: 720,
      mode: 'viewport',
      mimeType: 'image/png',
    });
    const png = image(result);
    expect(png?.mimeType).toBe('image/png');
    expect(
      Buffer.from(png?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  test('captures an element by CSS and the full page', async () => {
    const element = await h.ok<{ width: number; height: number; mode: string }>('browser_screenshot', {
      ...s,
      capture: { kind: 'element', css: 'h1' },
    });
    expect(element.mode).toBe('element');
    expect(element.width).toBeLessThanOrEqual(1280);
    const full = await h.ok<{ height: number }>('browser_screenshot', {
      ...s,
      capture: { kind: 'fullPage' },
    });
    expect(full.height).toBeGreaterThanOrEqual(720);
  });

  test('scales a full page over the limits down (never a hard error), and says so', async () => {
    site.route('/tall', (req, res) => {
      const height = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('h'));
      res.setHeader('content-type', 'text/html');
      res.end(
        `<!doctype html><title>Tall</title><body style="margin:0"><div style="height:${height}px;background:linear-gradient(red,blue)">top</div>`,
      );
    });
    const { screenshotMaxDimension: maxDim, screenshotMaxPixels: maxPixels } = h.mesh.config;
    type Shot = { width: number; height: number; scale?: number; clipped?: boolean };
    const shoot = async (height: number): Promise<Shot> => {
      await h.ok('browser_navigate', { ...s, url: site.url(`/tall?h=${height}`) });
      return h.ok<Shot>('browser_screenshot', { ...s, capture: { kind: 'fullPage' } });
    };
    const scaled = await shoot(maxDim * 2);
    expect(scaled.scale).toBeGreaterThan(0.25);
    expect(scaled.scale).toBeLessThan(1);
    expect(scaled.clipped).toBe(false);
    expect(Math.max(scaled.width, scaled.height)).toBeLessThanOrEqual(maxDim);
    expect(scaled.width * scaled.height).toBeLessThanOrEqual(maxPixels);
    // Far taller than any readable scale fits: clipped at the bottom instead, and it says so.
    const tall = await shoot(maxDim * 40);
    expect(tall.clipped).toBe(true);
    expect(tall.scale).toBeLessThanOrEqual(0.25);
    expect(tall.height).toBeLessThanOrEqual(maxDim);
    // Within the limits nothing changes.
    const small = await shoot(500);
    expect(small.scale).toBeUndefined();
  });

  test('refuses a bad element capture and the session keeps working', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/large') });
    const missing = await h.err('browser_screenshot', {
      ...s,
      capture: { kind: 'element', css: '#does-not-exist' },
    });
    expect(missing.code).toBe('ELEMENT_NOT_FOUND');
    expect((await h.ok<{ mode: string }>('browser_screenshot', s)).mode).toBe('viewport');
  });
});
