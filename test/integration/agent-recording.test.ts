/**
 * Recording (alpha) and screencast: Motion-JPEG AVI files a RIFF parser reads back frame by frame,
 * captions as subtitles, paths confined to outputDir, two threads recording at once, auto-stop, a
 * close that finishes the file, and a screencast that follows the thread's tab switches.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { ScreencastFrame } from '../../src/engine/page-screencast.js';
import type { RecordingResult } from '../../src/agent/recording/recorder.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { isJpeg, parseAvi } from './support/avi.js';
import { testAgentBrowser, ToolDriver, until } from './support/agent.js';
import { jpegSize } from '../../src/agent/recording/avi-writer.js';

let site: FixtureServer;
let outputDir: string;
let browser: AgentBrowser;

beforeAll(async () => {
  site = await startFixtureServer();
  outputDir = await mkdtemp(join(tmpdir(), 'bm-agent-rec-'));
  browser = testAgentBrowser({ recording: { outputDir, maxWidth: 640, maxHeight: 360 } });
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** Reads a finished recording back and checks it is a well-formed MJPEG AVI; returns the parse. */
async function readRecording(result: RecordingResult): Promise<ReturnType<typeof parseAvi>> {
  expect(result.path.startsWith(outputDir) || result.path.includes('bm-agent-rec-')).toBe(true);
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

describe('browser_record', () => {
  it('records the current tab across navigations and tab switches into a playable AVI with subtitles', async () => {
    const t = new ToolDriver(browser, { threadId: 'rec-1' });
    await t.ok('browser_goto', { url: site.url('/actions/buttons') });
    const started = await t.ok<{ recording: boolean; status: { path: string } }>('browser_record', {
      action: 'start',
      outputPath: 'tour.avi',
    });
    expect(started.recording).toBe(true);
    expect(started.status.path.endsWith('/tour.avi')).toBe(true);
    await t.ok('browser_record_caption', { text: 'Opening the shop', durationMs: 1500 });
    await t.ok('browser_goto', { url: site.url('/shop/') });
    await t.ok('browser_tabs', { action: 'new', url: site.url('/actions/scroll') });
    await t.ok('browser_scroll', { direction: 'down', amount: 800 });
    await until(
      async () =>
        ((await t.ok<{ status?: { frames: number } }>('browser_record', { action: 'status' })).status
          ?.frames ?? 0) >= 5,
      20_000,
      'frames',
    );
    const stopped = await t.ok<{ recording: boolean; result: RecordingResult }>('browser_record', {
      action: 'stop',
    });
    expect(stopped.recording).toBe(false);
    expect(stopped.result).toMatchObject({ stoppedBy: 'request', captions: 1, fps: 10 });
    const avi = await readRecording(stopped.result);
    // The video keeps wall-clock time: about fps frames per second recorded.
    expect(avi.frames.length).toBeGreaterThanOrEqual(Math.floor((stopped.result.durationMs / 1000) * 10) - 1);
    expect(avi.avih.width).toBeLessThanOrEqual(640);
    expect(await readFile(stopped.result.captionsPath ?? '', 'utf8')).toMatch(
      /^1\n00:00:00,\d{3} --> 00:00:0\d,\d{3}\nOpening the shop\n/,
    );
    // Stopping again returns the same finished recording.
    expect((await t.ok<{ result: RecordingResult }>('browser_record', { action: 'stop' })).result.path).toBe(
      stopped.result.path,
    );
  });

  it('lets two threads record at once, each its own session and file', async () => {
    const a = new ToolDriver(browser, { threadId: 'rec-a' });
    const b = new ToolDriver(browser, { threadId: 'rec-b' });
    await Promise.all([
      a.ok('browser_goto', { url: site.url('/shop/') }),
      b.ok('browser_goto', { url: site.url('/actions/scroll') }),
    ]);
    await Promise.all([
      a.ok('browser_record', { action: 'start' }),
      b.ok('browser_record', { action: 'start' }),
    ]);
    await Promise.all([
      a.ok('browser_goto', { url: site.url('/actions/buttons') }),
      b.ok('browser_scroll', { direction: 'down' }),
    ]);
    const [ra, rb] = await Promise.all([
      a.ok<{ result: RecordingResult }>('browser_record', { action: 'stop' }),
      b.ok<{ result: RecordingResult }>('browser_record', { action: 'stop' }),
    ]);
    expect(ra.result.path).not.toBe(rb.result.path);
    await readRecording(ra.result);
    await readRecording(rb.result);
  });

  it('stops by itself at maxDurationMs', async () => {
    const t = new ToolDriver(browser, { threadId: 'rec-auto' });
    await t.ok('browser_goto', { url: site.url('/') });
    await t.ok('browser_record', { action: 'start', maxDurationMs: 600 });
    await until(
      async () => !(await t.ok<{ recording: boolean }>('browser_record', { action: 'status' })).recording,
      15_000,
      'the auto stop',
    );
    const status = await t.ok<{ result: RecordingResult }>('browser_record', { action: 'status' });
    expect(status.result.stoppedBy).toBe('maxDurationMs');
    await readRecording(status.result);
  });

  it('refuses paths outside outputDir, existing files and misplaced options, and the next call works', async () => {
    const t = new ToolDriver(browser, { threadId: 'rec-bad' });
    await t.ok('browser_goto', { url: site.url('/') });
    expect((await t.fails('browser_record', { action: 'start', outputPath: '../escape.avi' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await t.fails('browser_record', { action: 'start', outputPath: '/tmp/x.avi' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    await writeFile(join(outputDir, 'exists.avi'), 'keep');
    expect((await t.fails('browser_record', { action: 'start', outputPath: 'exists.avi' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(await readFile(join(outputDir, 'exists.avi'), 'utf8')).toBe('keep');
    expect((await t.fails('browser_record', { action: 'stop', maxDurationMs: 1000 })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await t.fails('browser_record', { action: 'stop' })).code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_record_caption', { text: 'nothing running' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    await t.ok('browser_record', { action: 'start', outputPath: 'after-errors' });
    expect((await t.fails('browser_record', { action: 'start' })).code).toBe('INVALID_ARGUMENT');
    await readRecording(
      (await t.ok<{ result: RecordingResult }>('browser_record', { action: 'stop' })).result,
    );
  });

  it('finishes a running recording when the browser closes', async () => {
    const own = testAgentBrowser({ recording: { outputDir } });
    const t = new ToolDriver(own, { threadId: 'rec-close' });
    await t.ok('browser_goto', { url: site.url('/actions/buttons') });
    const started = await t.ok<{ status: { path: string } }>('browser_record', {
      action: 'start',
      outputPath: 'closed.avi',
    });
    await until(
      async () =>
        ((await t.ok<{ status?: { frames: number } }>('browser_record', { action: 'status' })).status
          ?.frames ?? 0) >= 1,
      15_000,
      'a frame',
    );
    await own.close();
    const avi = parseAvi(await readFile(started.status.path));
    expect(avi.frames.length).toBeGreaterThan(0);
    expect(avi.frames.every(isJpeg)).toBe(true);
  });

  it('is not published without the recording option', () => {
    const plain = testAgentBrowser();
    expect(plain.getTools().browser_record).toBeUndefined();
    expect(plain.getTools().browser_record_caption).toBeUndefined();
  });
});

describe('startScreencast', () => {
  it("streams frames of the thread's current tab and follows its tab switches", async () => {
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
