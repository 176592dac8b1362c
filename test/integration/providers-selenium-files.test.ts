/**
 * Files through the selenium provider against a real Selenium Grid 4 standalone on 127.0.0.1: uploads
 * by content travel inside the protocol (CDP through the Grid); downloads and PDFs are reported and read
 * back through browser_files. The Grid node runs on this machine here, so it shares the disk;
 * docs/files-and-pointer.md says what changes when the node is another machine.
 */
import { describe, expect, test } from './support/fixtures.js';
import { createLogger } from '../../src/engine/logger.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import { SeleniumProvider } from '../../src/engine/providers/selenium.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { McpHarness, testConfig } from '../helpers/harness.js';
import { canIsolateDisk } from './support/remote-chromium.js';
import { gridUnavailableReason, startGrid, type Grid } from './support/selenium-grid.js';
import { sharedGrid } from './support/shared-grid.js';

const missing = gridUnavailableReason();
/** A first Grid session on a loaded 2-core machine has taken over 30 s; the MCP client waits 60 s. */
const GRID_CREATE_MS = 55_000;
if (missing && process.env.CI === 'true') throw new Error(`Selenium Grid tests cannot run: ${missing}`);

describe.skipIf(missing !== undefined)('files over the selenium provider (Grid 4 standalone)', () => {
  let grid: Grid;
  let site: FixtureServer;
  let h: McpHarness;

  // The site comes from the shared fixtures; the Grid is this describe's own.
  test.beforeAll(async ({ site: fileSite }) => {
    site = fileSite;
    grid = await sharedGrid();
    const config = testConfig({
      provider: 'selenium',
      seleniumUrl: grid.url,
      tools: ['core', 'files'],
      timeoutMs: 30_000,
    });
    const logger = createLogger('silent');
    const provider = new SeleniumProvider({ url: grid.url, headless: true });
    h = await McpHarness.start({}, new BrowserMesh({ config, provider, logger }));
  }, 120_000);

  test.afterAll(async () => {
    await h?.close();
    await grid?.stop();
  }, 60_000);

  test('uploads by content, reports a download and reads it back, saves a PDF', async () => {
    const s = await h.session({ timeoutMs: GRID_CREATE_MS });
    await h.ok('browser_navigate', { ...s, url: site.url('/files/upload') });
    const upload = await h.ok('browser_upload', {
      ...s,
      locator: { label: 'Single file' },
      files: [
        { name: 'grid.txt', mimeType: 'text/plain', base64: Buffer.from('via grid').toString('base64') },
      ],
    });
    expect(upload).toMatchObject({ via: 'input', files: 1 });
    await h.ok('browser_wait', { ...s, text: 'single: grid.txt 8 text/plain via grid', timeoutMs: 5000 });

    await h.ok('browser_navigate', { ...s, url: site.url('/files/download') });
    const click = await h.ok<{ downloads?: Array<{ downloadId: string }> }>('browser_click', {
      ...s,
      locator: { role: 'link', name: 'Text report' },
    });
    expect(click.downloads?.[0]).toMatchObject({ name: 'report.txt', bytes: 26, state: 'completed' });
    const read = await h.ok('browser_files', {
      sessionId: s.sessionId,
      action: 'read',
      fileId: click.downloads?.[0]?.downloadId,
    });
    expect(read).toMatchObject({ text: 'Quarterly report\nall good\n' });
    const pdf = await h.ok<{ downloads: Array<Record<string, unknown>> }>('browser_pdf', s);
    expect(pdf.downloads[0]).toMatchObject({ mimeType: 'application/pdf', state: 'completed' });
  }, 180_000);
});

// The node on another machine: the Grid runs in its own mount namespace with a private /tmp, so its
// browsers save downloads where BrowserMesh cannot read (docs/files-and-pointer.md, "Remote browsers").
describe.skipIf(missing !== undefined || !canIsolateDisk())('files over a Grid node on another disk', () => {
  let grid: Grid;
  let site: FixtureServer;
  let h: McpHarness;

  // The site comes from the shared fixtures; the Grid is this describe's own.
  test.beforeAll(async ({ site: fileSite }) => {
    site = fileSite;
    grid = await startGrid({ maxSessions: 1, privateTmp: true });
    const config = testConfig({ provider: 'selenium', seleniumUrl: grid.url, tools: ['core', 'files'] });
    const provider = new SeleniumProvider({ url: grid.url, headless: true });
    h = await McpHarness.start({}, new BrowserMesh({ config, provider, logger: createLogger('silent') }));
  }, 120_000);

  test.afterAll(async () => {
    await h?.close();
    await grid?.stop();
  }, 60_000);

  test('reports the download failed, while an upload by content and a PDF still work', async () => {
    const s = await h.session({ timeoutMs: GRID_CREATE_MS });
    await h.ok('browser_navigate', { ...s, url: site.url('/files/download') });
    const click = await h.ok<{ downloads?: Array<Record<string, unknown>> }>('browser_click', {
      ...s,
      locator: { role: 'link', name: 'Text report' },
    });
    expect(click.downloads?.[0]).toMatchObject({
      name: 'report.txt',
      state: 'failed',
      errorCode: 'BROWSER_ERROR',
    });
    const pdf = await h.ok<{ downloads: Array<Record<string, unknown>> }>('browser_pdf', s);
    expect(pdf.downloads[0]).toMatchObject({ mimeType: 'application/pdf', state: 'completed' });
    await h.ok('browser_navigate', { ...s, url: site.url('/files/upload') });
    await h.ok('browser_upload', {
      ...s,
      locator: { label: 'Single file' },
      files: [
        { name: 'node.txt', mimeType: 'text/plain', base64: Buffer.from('far node').toString('base64') },
      ],
    });
    await h.ok('browser_wait', { ...s, text: 'single: node.txt 8 text/plain far node', timeoutMs: 5000 });
  }, 180_000);
});
