/**
 * Recording (alpha) and screencast through AgentBrowser: an MP4 from Chromium's own screen recorder
 * that Chromium's <video> plays, captions as subtitles, paths confined to outputDir, two threads
 * recording at once, auto-stop, a close that finishes the file, and — on a browser without the
 * screen recorder (a CDP endpoint that answers Page.startScreenRecording as missing) — the frames
 * encoder's Motion-JPEG AVI, following the thread's tab switches, with `format: 'avi'`.
 */
import { mkdtempSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { ScreencastFrame } from '../../src/engine/media/page-screencast.js';
import type { RecordingResult } from '../../src/agent/recording/recorder.js';
import { jpegSize } from '../../src/engine/media/avi-writer.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { isJpeg, parseAvi } from './support/avi.js';
import { testAgentBrowser, ToolDriver, until } from './support/agent.js';
import { startCdpWithout, type CdpWithout } from './support/cdp-without.js';
import { startRemoteChromium, stopRemoteChromium, type RemoteChromium } from './support/remote-chromium.js';
import { PLAY_SCRIPT, servePlayer, type Played } from './support/video.js';

let site: FixtureServer;
const outputDir = mkdtempSync(join(tmpdir(), 'bm-agent-rec-'));
let browser: AgentBrowser;

// The file's site and recording AgentBrowser come from the shared fixtures.
const test = fixtureTest.extend('agentOptions', { scope: 'file' }, () => ({
  recording: { outputDir, maxWidth: 640, maxHeight: 360 },
}));

test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  browser = agentBrowser;
});

/** Checks a finished MP4 recording and plays it in this thread's tab with Chromium's <video>. */
async function expectPlayableMp4(t: ToolDriver, result: RecordingResult, name: string): Promise<Played> {
  expect(result.format).toBe('mp4');
  expect(result.path.startsWith(outputDir) || result.path.includes('bm-agent-rec-')).toBe(true);
  expect(result.path.endsWith('.mp4')).toBe(true);
  const mp4 = await readFile(result.path);
  expect(mp4.length).toBe(result.bytes);
  expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
  await t.ok('browser_goto', { url: servePlayer(site, name, mp4, 'video/mp4') });
  const played = (
    await t.ok<{ value: Played }>('browser_evaluate', { script: PLAY_SCRIPT, returnValue: true })
  ).value;
  expect(played.error).toBeNull();
  expect(played.playError ?? null).toBeNull();
  expect(played.readyState).toBeGreaterThanOrEqual(2);
  expect(played.width).toBeGreaterThan(0);
  expect(played.frames).toBeGreaterThanOrEqual(1);
  return played;
}

/** Reads a finished frames-encoder recording back and checks it is a well-formed MJPEG AVI. */
async function readAvi(result: RecordingResult): Promise<ReturnType<typeof parseAvi>> {
  expect(result.format).toBe('avi');
  const avi = parseAvi(await readFile(result.path));
  expect(avi.frames.length).toBe(result.frames);
  expect(avi.frames.length).toBeGreaterThan(0);
  expect(avi.frames.every(isJpeg)).toBe(true);
  expect(avi.avih.totalFrames).toBe(avi.frames.length);
  expect(avi.strh).toMatchObject({
    type: 'vids',
    handler: 'MJPG',
    rate: result.fps,
    length: avi.frames.length,
  });
  expect(avi.index).toHaveLength(avi.frames.length);
  expect(jpegSize(avi.frames[0] ?? Buffer.alloc(0))).toEqual({
    width: avi.avih.width,
    height: avi.avih.height,
  });
  return avi;
}

/** Waits until the tab has repainted a good number of times (the ticker counts every 100 ms). */
async function ticks(t: ToolDriver, n: number): Promise<void> {
  const from = Number(await t.text('n'));
  await until(async () => Number(await t.text('n')) >= from + n, 20_000, 'the page to repaint');
}

const TICKER = `<!doctype html><title>Ticker</title><h1 id="n">0</h1>
<script>let i=0;setInterval(()=>{document.getElementById('n').textContent=String(++i);
document.body.style.background=i%2?'#fde':'#def'},100)</script>`;

test.beforeAll(() => {
  site.route('/rec/ticker', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(TICKER);
  });
});

describe('browser_record', () => {
  test('records the current tab into an MP4 that Chromium’s <video> plays, with subtitles', async () => {
    const t = new ToolDriver(browser, { threadId: 'rec-1' });
    await t.ok('browser_goto', { url: site.url('/rec/ticker') });
    const started = await t.ok<{ recording: boolean; status: { path: string; format: string } }>(
      'browser_record',
      { action: 'start', outputPath: 'tour.avi' },
    );
    expect(started.recording).toBe(true);
    // The stem is the agent's; the extension follows the format produced.
    expect(started.status).toMatchObject({ format: 'mp4' });
    expect(started.status.path.endsWith('/tour.mp4')).toBe(true);
    await t.ok('browser_record_caption', { text: 'Counting up', durationMs: 1500 });
    await ticks(t, 10);
    const status = await t.ok<{ status: { elapsedMs: number; captions: number } }>('browser_record', {
      action: 'status',
    });
    expect(status.status).toMatchObject({ captions: 1 });
    const stopped = await t.ok<{ recording: boolean; result: RecordingResult }>('browser_record', {
      action: 'stop',
    });
    expect(stopped.recording).toBe(false);
    expect(stopped.result).toMatchObject({ stoppedBy: 'request', captions: 1, format: 'mp4' });
    expect(await readFile(stopped.result.captionsPath ?? '', 'utf8')).toMatch(
      /^1\n00:00:00,\d{3} --> 00:00:0\d,\d{3}\nCounting up\n/,
    );
    expect(stopped.result.captionsPath).toBe(stopped.result.path.replace(/\.mp4$/, '.srt'));
    // Stopping again returns the same finished recording.
    expect((await t.ok<{ result: RecordingResult }>('browser_record', { action: 'stop' })).result.path).toBe(
      stopped.result.path,
    );
    await expectPlayableMp4(t, stopped.result, 'tour');
  });

  test('lets two threads record at once, each its own session and file', async () => {
    const a = new ToolDriver(browser, { threadId: 'rec-a' });
    const b = new ToolDriver(browser, { threadId: 'rec-b' });
    await Promise.all([
      a.ok('browser_goto', { url: site.url('/rec/ticker') }),
      b.ok('browser_goto', { url: site.url('/rec/ticker') }),
    ]);
    await Promise.all([
      a.ok('browser_record', { action: 'start' }),
      b.ok('browser_record', { action: 'start' }),
    ]);
    await Promise.all([ticks(a, 5), ticks(b, 5)]);
    const [ra, rb] = await Promise.all([
      a.ok<{ result: RecordingResult }>('browser_record', { action: 'stop' }),
      b.ok<{ result: RecordingResult }>('browser_record', { action: 'stop' }),
    ]);
    expect(ra.result.path).not.toBe(rb.result.path);
    await expectPlayableMp4(a, ra.result, 'two-a');
    await expectPlayableMp4(b, rb.result, 'two-b');
  });

  test('stops by itself at maxDurationMs', async () => {
    const t = new ToolDriver(browser, { threadId: 'rec-auto' });
    await t.ok('browser_goto', { url: site.url('/rec/ticker') });
    await t.ok('browser_record', { action: 'start', maxDurationMs: 1000 });
    await until(
      async () => !(await t.ok<{ recording: boolean }>('browser_record', { action: 'status' })).recording,
      15_000,
      'the auto stop',
    );
    const status = await t.ok<{ result: RecordingResult }>('browser_record', { action: 'status' });
    expect(status.result.stoppedBy).toBe('maxDurationMs');
    await expectPlayableMp4(t, status.result, 'auto');
  });

  test('refuses paths outside outputDir, existing files and misplaced options, and the next call works', async () => {
    const t = new ToolDriver(browser, { threadId: 'rec-bad' });
    await t.ok('browser_goto', { url: site.url('/') });
    expect((await t.fails('browser_record', { action: 'start', outputPath: '../escape.avi' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await t.fails('browser_record', { action: 'start', outputPath: '/tmp/x.avi' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    await writeFile(join(outputDir, 'exists.mp4'), 'keep');
    expect((await t.fails('browser_record', { action: 'start', outputPath: 'exists.mp4' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(await readFile(join(outputDir, 'exists.mp4'), 'utf8')).toBe('keep');
    expect((await t.fails('browser_record', { action: 'start', outputPath: 'clip.webm' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await t.fails('browser_record', { action: 'stop', maxDurationMs: 1000 })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await t.fails('browser_record', { action: 'stop' })).code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_record_caption', { text: 'nothing running' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    await t.ok('browser_record', { action: 'start', outputPath: 'after-errors' });
    expect((await t.fails('browser_record', { action: 'start' })).code).toBe('INVALID_ARGUMENT');
    const after = (await t.ok<{ result: RecordingResult }>('browser_record', { action: 'stop' })).result;
    expect(after).toMatchObject({ format: 'mp4' });
    expect(after.path.endsWith('/after-errors.mp4')).toBe(true);
  });

  test('reports a recorded tab closed before stop as BROWSER_ERROR, leaves no file, and records again', async () => {
    const t = new ToolDriver(browser, { threadId: 'rec-tab-closed' });
    await t.ok('browser_goto', { url: site.url('/rec/ticker') });
    const started = await t.ok<{ status: { path: string } }>('browser_record', {
      action: 'start',
      outputPath: 'tab-closed',
    });
    await t.ok('browser_tabs', { action: 'close' });
    const failed = await t.fails('browser_record', { action: 'stop' });
    expect(failed.code).toBe('BROWSER_ERROR');
    await expect(readFile(started.status.path)).rejects.toThrow();
    await t.ok('browser_goto', { url: site.url('/rec/ticker') });
    await t.ok('browser_record', { action: 'start', outputPath: 'tab-closed-again' });
    await ticks(t, 3);
    const again = await t.ok<{ result: RecordingResult }>('browser_record', { action: 'stop' });
    expect(again.result).toMatchObject({ format: 'mp4' });
  });

  test('finishes a running recording when the browser closes', async () => {
    const own = testAgentBrowser({ recording: { outputDir } });
    const t = new ToolDriver(own, { threadId: 'rec-close' });
    await t.ok('browser_goto', { url: site.url('/rec/ticker') });
    const started = await t.ok<{ status: { path: string } }>('browser_record', {
      action: 'start',
      outputPath: 'closed',
    });
    await ticks(t, 5);
    await own.close();
    const mp4 = await readFile(started.status.path);
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const viewer = new ToolDriver(browser, { threadId: 'rec-close-viewer' });
    await expectPlayableMp4(
      viewer,
      { format: 'mp4', path: started.status.path, bytes: mp4.length } as RecordingResult,
      'closed',
    );
  });

  test('is not published without the recording option', () => {
    const plain = testAgentBrowser();
    expect(plain.getTools().browser_record).toBeUndefined();
    expect(plain.getTools().browser_record_caption).toBeUndefined();
  });
});

describe('browser_record on a browser without a screen recorder', () => {
  let remote: RemoteChromium;
  let proxy: CdpWithout;
  let old: AgentBrowser;

  // Its own Chromium behind a CDP endpoint without the screen recorder: not the file's AgentBrowser.
  test.beforeAll(async () => {
    remote = await startRemoteChromium();
    proxy = await startCdpWithout(remote.httpEndpoint, ['Page.startScreenRecording']);
    old = testAgentBrowser({ cdpUrl: proxy.httpEndpoint, scope: 'thread', recording: { outputDir } });
  }, 60_000);
  test.afterAll(async () => {
    await old?.close();
    await proxy?.close();
    if (remote) await stopRemoteChromium(remote);
  });

  test('falls back to the frames encoder (AVI, following tab switches) and says so', async () => {
    const t = new ToolDriver(old, { threadId: 'rec-old' });
    await t.ok('browser_goto', { url: site.url('/rec/ticker') });
    const started = await t.ok<{ status: { path: string; format: string } }>('browser_record', {
      action: 'start',
      outputPath: 'old.mp4',
    });
    expect(proxy.refused()).toBeGreaterThanOrEqual(1);
    expect(started.status.format).toBe('avi');
    expect(started.status.path.endsWith('/old.avi')).toBe(true);
    await t.ok('browser_record_caption', { text: 'Fallback', durationMs: 1000 });
    await t.ok('browser_tabs', { action: 'new', url: site.url('/shop/') });
    await until(
      async () =>
        ((await t.ok<{ status?: { frames: number } }>('browser_record', { action: 'status' })).status
          ?.frames ?? 0) >= 5,
      20_000,
      'frames',
    );
    const stopped = await t.ok<{ result: RecordingResult }>('browser_record', { action: 'stop' });
    expect(stopped.result).toMatchObject({ format: 'avi', fps: 10, captions: 1, stoppedBy: 'request' });
    const avi = await readAvi(stopped.result);
    // The video keeps wall-clock time: about fps frames per second recorded.
    expect(avi.frames.length).toBeGreaterThanOrEqual(Math.floor((stopped.result.durationMs / 1000) * 10) - 1);
    expect(avi.avih.width).toBeLessThanOrEqual(1024);
    expect(await readFile(stopped.result.captionsPath ?? '', 'utf8')).toMatch(/\nFallback\n/);
  });
});

describe('startScreencast', () => {
  test("streams frames of the thread's current tab and follows its tab switches", async () => {
    const t = new ToolDriver(browser, { threadId: 'cast' });
    await t.ok('browser_goto', { url: site.url('/actions/buttons') });
    const stream = await browser.startScreencast({ threadId: 'cast', maxWidth: 320, maxHeight: 240 });
    const frames: ScreencastFrame[] = [];
    const urls: string[] = [];
    stream.on('frame', (frame) => frames.push(frame));
    stream.on('url', (url) => urls.push(url));
    await until(() => frames.length > 0, 15_000, 'a first frame');
    const firstTab = frames[0]?.pageId;
    const opened = await t.ok<{ tabs: Array<{ tabId: string; current: boolean }> }>('browser_tabs', {
      action: 'new',
      url: site.url('/shop/'),
    });
    const newTab = opened.tabs.find((tab) => tab.current)?.tabId;
    expect(newTab).not.toBe(firstTab);
    await until(() => frames.some((frame) => frame.pageId === newTab), 15_000, 'frames from the new tab');
    await until(() => urls.includes(site.url('/shop/')), 15_000, "the new tab's URL");
    expect(Buffer.from(frames.at(-1)?.data ?? '', 'base64').subarray(0, 2)).toEqual(
      Buffer.from([0xff, 0xd8]),
    );
    expect(frames.at(-1)?.viewport.width).toBeGreaterThan(0);
    // Another thread's screencast shows that thread's page, not this one.
    const other = new ToolDriver(browser, { threadId: 'cast-other' });
    await other.ok('browser_goto', { url: site.url('/actions/scroll') });
    const otherStream = await browser.startScreencast({ threadId: 'cast-other' });
    const otherUrls: string[] = [];
    otherStream.on('url', (url) => otherUrls.push(url));
    await otherStream.reconnect();
    expect(otherUrls).toEqual([site.url('/actions/scroll')]);
    let stopped = '';
    stream.on('stop', (reason) => (stopped = reason));
    await Promise.all([stream.stop(), otherStream.stop()]);
    expect(stopped).toBe('manual');
    expect(stream.isActive()).toBe(false);
  });
});
