/**
 * Files through the cdp provider (a remote-debugging Chromium this test starts on 127.0.0.1): uploads
 * by content travel inside the protocol; downloads and PDFs land in the session's folder on the
 * BrowserMesh side. The browser shares this machine's disk here, so the test shows the files path over
 * CDP works; docs/scale.md says what changes when the browser is on another machine.
 */
import { describe, expect, test } from './support/fixtures.js';
import { createLogger } from '../../src/engine/logger.js';
import { createBrowserMesh } from '../../src/create-mesh.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { McpHarness, testConfig } from '../helpers/harness.js';
import {
  canIsolateDisk,
  startRemoteChromium,
  stopRemoteChromium,
  type RemoteChromium,
} from './support/remote-chromium.js';

describe('files over the cdp provider', () => {
  let remote: RemoteChromium;
  let site: FixtureServer;
  let h: McpHarness;

  // The site comes from the shared fixtures; the remote Chromium is this describe's own.
  test.beforeAll(async ({ site: fileSite }) => {
    site = fileSite;
    remote = await startRemoteChromium();
    const config = testConfig({
      provider: 'cdp',
      cdpEndpoint: remote.httpEndpoint,
      tools: ['core', 'files'],
    });
    h = await McpHarness.start({}, createBrowserMesh({ config, logger: createLogger('silent') }));
  }, 60_000);

  test.afterAll(async () => {
    await h?.close();
    if (remote) await stopRemoteChromium(remote);
  });

  test('uploads by content, reports a download and saves a PDF', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/files/upload') });
    const upload = await h.ok('browser_upload', {
      ...s,
      locator: { label: 'Single file' },
      files: [
        { name: 'remote.txt', mimeType: 'text/plain', base64: Buffer.from('over cdp').toString('base64') },
      ],
    });
    expect(upload).toMatchObject({ via: 'input', files: 1 });
    await h.ok('browser_wait', { ...s, text: 'single: remote.txt 8 text/plain over cdp', timeoutMs: 5000 });

    await h.ok('browser_navigate', { ...s, url: site.url('/files/download') });
    const click = await h.ok<{ downloads?: Array<Record<string, unknown>> }>('browser_click', {
      ...s,
      locator: { role: 'link', name: 'Text report' },
    });
    expect(click.downloads?.[0]).toMatchObject({ name: 'report.txt', bytes: 26, state: 'completed' });
    const pdf = await h.ok<{ downloads: Array<Record<string, unknown>> }>('browser_pdf', s);
    expect(pdf.downloads[0]).toMatchObject({ mimeType: 'application/pdf', state: 'completed' });
  });
});

// A browser on another machine (a CDP endpoint elsewhere, or a Selenium Grid node: its se:cdp is the
// same protocol) saves a download on its own disk. Simulated with a browser in its own mount namespace
// whose /tmp is a private tmpfs: what it writes there, BrowserMesh cannot read.
describe.skipIf(!canIsolateDisk())('files over the cdp provider, browser on another disk', () => {
  let remote: RemoteChromium;
  let site: FixtureServer;
  let h: McpHarness;

  // The site comes from the shared fixtures; the remote Chromium is this describe's own.
  test.beforeAll(async ({ site: fileSite }) => {
    site = fileSite;
    remote = await startRemoteChromium({ privateTmp: true });
    const config = testConfig({
      provider: 'cdp',
      cdpEndpoint: remote.httpEndpoint,
      tools: ['core', 'files'],
    });
    h = await McpHarness.start({}, createBrowserMesh({ config, logger: createLogger('silent') }));
  }, 60_000);

  test.afterAll(async () => {
    await h?.close();
    if (remote) await stopRemoteChromium(remote);
  });

  test('reports the download failed (never hangs), while uploads by content and PDFs still work', async () => {
    const s = await h.session();
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
    const list = await h.ok<{ files: Array<{ state: string }> }>('browser_files', { sessionId: s.sessionId });
    expect(list.files.every((file) => file.state === 'failed')).toBe(true);
    // The bytes of a PDF and of an upload by content travel inside the protocol.
    const pdf = await h.ok<{ downloads: Array<Record<string, unknown>> }>('browser_pdf', s);
    expect(pdf.downloads[0]).toMatchObject({ mimeType: 'application/pdf', state: 'completed' });
    await h.ok('browser_navigate', { ...s, url: site.url('/files/upload') });
    await h.ok('browser_upload', {
      ...s,
      locator: { label: 'Single file' },
      files: [
        { name: 'far.txt', mimeType: 'text/plain', base64: Buffer.from('far away').toString('base64') },
      ],
    });
    await h.ok('browser_wait', { ...s, text: 'single: far.txt 8 text/plain far away', timeoutMs: 5000 });
  });
});
