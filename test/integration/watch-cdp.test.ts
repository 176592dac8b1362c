/**
 * Watch and replay over the cdp provider: a Chromium this test starts with --remote-debugging-port on
 * 127.0.0.1. The dashboard lists the session and streams its frames, a trace is written on the
 * BrowserMesh side with one group per tool call, and the remote Chromium's screen recorder gives an MP4.
 * Behind an endpoint that lacks Page.startScreenRecording, browser_recording falls back to the frames
 * encoder and says so (format "avi").
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDashboardServer, type RunningDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/engine/logger.js';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';
import { startRemoteChromium, stopRemoteChromium, type RemoteChromium } from './support/remote-chromium.js';
import { isJpeg, parseAvi } from './support/avi.js';
import { startCdpWithout, type CdpWithout } from './support/cdp-without.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { expectTakeover } from './support/takeover.js';
import { readZip } from './support/zip.js';

type FileOut = { name: string; bytes: number; mimeType: string | null };

// The file's own copy of the fixtures (files share one module graph per worker): the remote Chromium,
// started once for the file and stopped after its harnesses, and the main harness on its endpoint.
const test = fixtureTest
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
  .extend('remote', { scope: 'file' }, async ({}, { onCleanup }): Promise<RemoteChromium> => {
    const chromium = await startRemoteChromium();
    onCleanup(() => stopRemoteChromium(chromium));
    return chromium;
  })
  .extend('harnessConfig', { scope: 'file' }, ({ remote }): Partial<Config> => ({
    provider: 'cdp',
    cdpEndpoint: remote.httpEndpoint,
    tools: ['core', 'watch'],
  }));

describe('watch and replay on the cdp provider', () => {
  let site: FixtureServer;
  let h: McpHarness;
  let dashboard: RunningDashboard;

  test.beforeAll(async ({ site: fileSite, harness }) => {
    site = fileSite;
    h = harness;
    dashboard = await startDashboardServer({
      mesh: h.mesh,
      logger: createLogger('silent'),
      port: 0,
      token: '',
      takeover: true,
    });
  }, 60_000);

  test.afterAll(async () => {
    await dashboard?.close();
  });

  test('shows the session with live frames, traces its calls and records an MP4', async () => {
    const s = await h.session({ name: 'remote' });
    await h.ok('browser_trace', { sessionId: s.sessionId, action: 'start' });
    await h.ok('browser_recording', { ...s, action: 'start' });
    const nav = await h.ok<{ operationId: string }>('browser_navigate', { ...s, url: site.url('/shop/') });

    const state = (await (await fetch(`${dashboard.url}api/state`)).json()) as {
      sessions: Array<{ sessionId: string; provider: string; pages: Array<{ url: string }> }>;
    };
    const shown = state.sessions.find((session) => session.sessionId === s.sessionId);
    expect(shown).toMatchObject({
      provider: 'cdp',
      tracing: true,
      recording: [s.pageId],
      pages: [{ url: site.url('/shop/') }],
    });

    // The first frame arrives over the remote browser's CDP endpoint.
    const controller = new AbortController();
    const res = await fetch(`${dashboard.url}api/frames?sessionId=${s.sessionId}&pageId=${s.pageId}`, {
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: frame')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();

    const trace = await h.ok<{ file: FileOut }>('browser_trace', { sessionId: s.sessionId, action: 'stop' });
    const folder = h.mesh.getSession(s.sessionId).files.folder;
    const zip = readZip(await readFile(join(folder, trace.file.name)));
    expect(zip.get('trace.trace')?.toString('utf8')).toContain(`browser_navigate · ${nav.operationId}`);

    const recorded = await h.ok<{ files: Array<{ file: FileOut }> }>('browser_recording', {
      sessionId: s.sessionId,
      action: 'stop',
    });
    expect(recorded.files[0]?.file).toMatchObject({ mimeType: 'video/mp4' });
    const mp4 = await readFile(join(folder, recorded.files[0]!.file.name));
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // Take-over: the person's input goes over the remote browser's CDP endpoint while the agent waits.
    await expectTakeover(dashboard.url, h, s, site);
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });
});

describe('browser_recording on a browser without a screen recorder', () => {
  let proxy: CdpWithout;
  let site: FixtureServer;
  let h: McpHarness;

  // The file's site and remote Chromium; this harness is a second one, on an endpoint in front of it.
  test.beforeAll(async ({ site: fileSite, remote }) => {
    site = fileSite;
    // A CDP endpoint that answers Page.startScreenRecording as an older Chromium does (-32601).
    proxy = await startCdpWithout(remote.httpEndpoint, ['Page.startScreenRecording']);
    h = await McpHarness.start({
      provider: 'cdp',
      cdpEndpoint: proxy.httpEndpoint,
      tools: ['core', 'watch'],
    });
  }, 60_000);

  test.afterAll(async () => {
    await h?.close();
    await proxy?.close();
  });

  test('falls back to the frames encoder (Motion-JPEG AVI) and says which format it produced', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/shop/') });
    await h.ok('browser_recording', { ...s, action: 'start' });
    expect(proxy.refused()).toBe(1);
    await h.ok('browser_recording', { ...s, action: 'caption', text: 'Older browser' });
    const page = h.mesh.getSession(s.sessionId).getPage(s.pageId).page;
    // Repaint for a while so frames flow.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          let i = 0;
          const timer = setInterval(() => {
            document.body.style.background = ++i % 2 ? '#fde' : '#def';
            if (i >= 15) {
              clearInterval(timer);
              resolve();
            }
          }, 100);
        }),
    );
    const stopped = await h.ok<{
      files: Array<{
        file: FileOut & { fileId: string };
        captions: FileOut | null;
        format: string;
        errorCode: string | null;
      }>;
    }>('browser_recording', { sessionId: s.sessionId, action: 'stop' });
    const done = stopped.files[0]!;
    expect(done).toMatchObject({ format: 'avi', errorCode: null, file: { mimeType: 'video/x-msvideo' } });
    expect(done.file.name).toMatch(/\.avi$/);
    expect(done.captions?.name).toBe(done.file.name.replace(/\.avi$/, '.srt'));
    const avi = parseAvi(await readFile(join(h.mesh.getSession(s.sessionId).files.folder, done.file.name)));
    expect(avi.frames.length).toBeGreaterThan(0);
    expect(avi.frames.every(isJpeg)).toBe(true);
    expect(avi.strh).toMatchObject({ handler: 'MJPG', length: avi.frames.length });
    // Read back like any session file.
    const listed = await h.ok<{ files: Array<{ fileId: string; bytes: number }> }>('browser_files', {
      sessionId: s.sessionId,
    });
    expect(listed.files.find((file) => file.fileId === done.file.fileId)?.bytes).toBe(done.file.bytes);
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });
});
