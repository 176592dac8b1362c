/**
 * Traces and recordings on the MCP server (opt-in 'watch' profile), against real Chromium: a trace
 * started at creation or by the tool is a Playwright zip in the session's folder whose groups name
 * each tool call; a recording is an MP4 that Chromium's own <video> decodes.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../src/config/load.js';
import { recordingsOf } from '../../src/engine/media/session-recordings.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';
import { PLAY_SCRIPT, servePlayer, type Played } from './support/video.js';
import { waitFor } from './support/wait.js';
import { serveTraceViewer } from './support/trace-viewer.js';
import { readZip } from './support/zip.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

type FileOut = { fileId: string; name: string; bytes: number; mimeType: string | null };

const TICKER = `<!doctype html><title>Ticker</title><h1 id="n">0</h1><button id="b">go</button>
<script>let i=0;setInterval(()=>{const n=document.getElementById('n');n.textContent=String(++i);
document.body.style.background=i%2?'#fde':'#def'},100)</script>`;

let h: McpHarness;
let site: FixtureServer;

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'watch'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  site.route('/watch/ticker', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(TICKER);
  });
});

function fileOnDisk(sessionId: string, name: string): string {
  return join(h.mesh.getSession(sessionId).files.folder, name);
}

describe('browser_trace', () => {
  test('records from creation (contextSettings.trace) with one named group per tool call', async () => {
    const s = await h.session({ contextSettings: { trace: true } });
    const nav = await h.ok<{ operationId: string }>('browser_navigate', {
      ...s,
      url: site.url('/watch/ticker'),
    });
    const click = await h.ok<{ operationId: string }>('browser_click', {
      ...s,
      locator: { role: 'button', name: 'go' },
    });
    const stopped = await h.ok<{ tracing: boolean; file: FileOut }>('browser_trace', {
      sessionId: s.sessionId,
      action: 'stop',
    });
    expect(stopped.tracing).toBe(false);
    expect(stopped.file).toMatchObject({ mimeType: 'application/zip' });
    expect(stopped.file.name).toMatch(/^trace-.*\.zip$/);
    expect(JSON.stringify(stopped)).not.toContain(h.mesh.config.dataDir);

    const zip = readZip(await readFile(fileOnDisk(s.sessionId, stopped.file.name)));
    expect(stopped.file.bytes).toBeGreaterThan(0);
    const events = zip.get('trace.trace')?.toString('utf8') ?? '';
    expect(events).toContain(`browser_navigate · ${nav.operationId}`);
    expect(events).toContain(`browser_click · ${click.operationId}`);
    expect([...zip.keys()].some((name) => name.endsWith('.network'))).toBe(true);

    // It opens in Playwright's own trace viewer (what show-trace and trace.playwright.dev run), whose
    // action list reads as the agent's steps.
    const viewer = await serveTraceViewer(await readFile(fileOnDisk(s.sessionId, stopped.file.name)));
    try {
      const other = await h.session();
      const page = h.mesh.getSession(other.sessionId).getPage(other.pageId).page;
      await page.goto(viewer.url);
      await page.getByText(`browser_navigate · ${nav.operationId}`).first().waitFor({ timeout: 30_000 });
      await page.getByText(`browser_click · ${click.operationId}`).first().waitFor({ timeout: 30_000 });
      await h.ok('browser_session_close', { sessionId: other.sessionId });
    } finally {
      await viewer.close();
    }
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('starts and stops by tool, refuses a double start or a stop without a trace, and saves at close', async () => {
    const s = await h.session();
    expect((await h.err('browser_trace', { sessionId: s.sessionId, action: 'stop' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    await h.ok('browser_trace', { sessionId: s.sessionId, action: 'start', screenshots: false });
    expect((await h.err('browser_trace', { sessionId: s.sessionId, action: 'start' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await h.err('browser_trace', { sessionId: s.sessionId, action: 'pause' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(
      (await h.err('browser_trace', { sessionId: s.sessionId, action: 'stop', snapshots: true })).code,
    ).toBe('INVALID_ARGUMENT');
    expect((await h.err('browser_trace', { sessionId: 's_missing', action: 'stop' })).code).toBe(
      'SESSION_NOT_FOUND',
    );
    await h.ok('browser_navigate', { ...s, url: site.url('/watch/ticker') });

    // Closing while tracing stores the trace before the context goes (kept here to look at it).
    const session = h.mesh.getSession(s.sessionId);
    await session.close({ keepFiles: true });
    const traces = session.files.list('trace');
    expect(traces).toHaveLength(1);
    const zip = readZip(await readFile(fileOnDisk(s.sessionId, traces[0]!.name)));
    expect(zip.get('trace.trace')?.toString('utf8')).toContain('browser_navigate · ');
  });

  test('refuses a trace over the session quota with LIMIT_EXCEEDED and keeps the session working', async () => {
    const small = await McpHarness.start({ tools: ['core', 'watch'], sessionFileQuotaBytes: 1024 });
    try {
      const s = await small.session();
      await small.ok('browser_trace', { sessionId: s.sessionId, action: 'start' });
      await small.ok('browser_navigate', { ...s, url: site.url('/watch/ticker') });
      expect((await small.err('browser_trace', { sessionId: s.sessionId, action: 'stop' })).code).toBe(
        'LIMIT_EXCEEDED',
      );
      const traces = small.mesh.getSession(s.sessionId).files.list('trace');
      expect(traces.filter((file) => file.state === 'completed')).toEqual([]);
      for (const file of traces)
        await expect(
          stat(join(small.mesh.getSession(s.sessionId).files.folder, file.name)),
        ).rejects.toThrow();
      expect((await small.ok<{ title: string }>('browser_get_title', s)).title).toBe('Ticker');
    } finally {
      await small.close();
    }
  });
});

describe('browser_recording', () => {
  test('records a page as an MP4 that Chromium’s <video> plays', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/watch/ticker') });
    const started = await h.ok<{ recording: string[] }>('browser_recording', {
      sessionId: s.sessionId,
      pageId: s.pageId,
      action: 'start',
    });
    expect(started.recording).toEqual([s.pageId]);
    expect((await h.err('browser_recording', { ...s, action: 'start' })).code).toBe('INVALID_ARGUMENT');
    // Let the page repaint a good number of times while it is recorded, with a caption on the way.
    const page = h.mesh.getSession(s.sessionId).getPage(s.pageId).page;
    const ticks = Number(await page.locator('#n').textContent());
    const ticked = (n: number) =>
      page.waitForFunction(
        ([from, by]) => Number(document.getElementById('n')?.textContent) >= from! + by!,
        [ticks, n],
      );
    await ticked(5);
    const captioned = await h.ok<{ captioned: string[] }>('browser_recording', {
      sessionId: s.sessionId,
      action: 'caption',
      text: 'Counting up',
      durationMs: 1000,
    });
    expect(captioned.captioned).toEqual([s.pageId]);
    await ticked(15);
    const stopped = await h.ok<{
      recording: string[];
      files: Array<{ pageId: string; file: FileOut; captions: FileOut }>;
    }>('browser_recording', { sessionId: s.sessionId, action: 'stop' });
    expect(stopped.recording).toEqual([]);
    const file = stopped.files[0]!.file;
    expect(stopped.files[0]).toMatchObject({ format: 'mp4', errorCode: null });
    expect(file).toMatchObject({ mimeType: 'video/mp4' });
    expect(file.name).toMatch(/\.mp4$/);
    const srt = stopped.files[0]!.captions;
    expect(srt.name).toBe(file.name.replace(/\.mp4$/, '.srt'));
    expect(await readFile(fileOnDisk(s.sessionId, srt.name), 'utf8')).toMatch(
      /^1\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\nCounting up\n/,
    );

    const mp4 = await readFile(fileOnDisk(s.sessionId, file.name));
    const player = h.mesh.getSession(s.sessionId).getPage(s.pageId).page;
    await player.goto(servePlayer(site, 'watch', mp4, 'video/mp4'));
    const played = (await player.evaluate(PLAY_SCRIPT)) as Played;
    expect(played.error).toBeNull();
    expect(played.playError ?? null).toBeNull();
    expect(played.readyState).toBeGreaterThanOrEqual(2);
    expect(played.width).toBeGreaterThan(0);
    expect(played.frames).toBeGreaterThanOrEqual(1);
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('records every page of the session without pageId, one file each, and stops one page alone', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/watch/ticker') });
    const second = await h.ok<{ page: { pageId: string } }>('browser_page_create', {
      sessionId: s.sessionId,
    });
    const other = second.page.pageId;
    await h.ok('browser_navigate', { sessionId: s.sessionId, pageId: other, url: site.url('/watch/ticker') });
    const started = await h.ok<{ recording: string[] }>('browser_recording', {
      sessionId: s.sessionId,
      action: 'start',
    });
    expect([...started.recording].sort()).toEqual([s.pageId, other].sort());
    const page = h.mesh.getSession(s.sessionId).getPage(other).page;
    await page.waitForFunction(() => Number(document.getElementById('n')?.textContent) >= 10);
    // Stopping one page leaves the other recording.
    const one = await h.ok<{ recording: string[]; files: Array<{ pageId: string; format: string }> }>(
      'browser_recording',
      { sessionId: s.sessionId, pageId: other, action: 'stop' },
    );
    expect(one.recording).toEqual([s.pageId]);
    expect(one.files).toEqual([expect.objectContaining({ pageId: other, format: 'mp4' })]);
    const rest = await h.ok<{ recording: string[]; files: Array<{ pageId: string; file: FileOut }> }>(
      'browser_recording',
      { sessionId: s.sessionId, action: 'stop' },
    );
    expect(rest.recording).toEqual([]);
    expect(rest.files.map((f) => f.pageId)).toEqual([s.pageId]);
    expect(h.mesh.getSession(s.sessionId).files.list('recording')).toHaveLength(2);
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('stops by itself after maxDurationMs and reports the file at the next stop; bad inputs are coded', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/watch/ticker') });
    expect((await h.err('browser_recording', { ...s, action: 'start', maxDurationMs: 5 })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(
      (await h.err('browser_recording', { sessionId: s.sessionId, pageId: 'p_nope', action: 'start' })).code,
    ).toBe('PAGE_NOT_FOUND');
    expect((await h.err('browser_recording', { ...s, action: 'stop' })).code).toBe('INVALID_ARGUMENT');
    expect((await h.err('browser_recording', { ...s, action: 'caption', text: 'x' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await h.err('browser_recording', { ...s, action: 'caption' })).code).toBe('INVALID_ARGUMENT');
    expect((await h.err('browser_recording', { ...s, action: 'stop', maxDurationMs: 2000 })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await h.err('browser_recording', { ...s, action: 'start', text: 'x' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await h.err('browser_session_create', { contextSettings: { trace: 'yes' } })).code).toBe(
      'INVALID_ARGUMENT',
    );
    await h.ok('browser_recording', { sessionId: s.sessionId, action: 'start', maxDurationMs: 1000 });
    const recordings = recordingsOf(h.mesh.getSession(s.sessionId));
    await waitFor(() => recordings.activePageIds().length === 0, 20_000, 'the recording to stop by itself');
    const stopped = await h.ok<{ files: Array<{ file: FileOut | null }> }>('browser_recording', {
      sessionId: s.sessionId,
      action: 'stop',
    });
    expect(stopped.files).toHaveLength(1);
    expect(stopped.files[0]?.file?.mimeType).toBe('video/mp4');
    expect(h.mesh.getSession(s.sessionId).files.list('recording')).toHaveLength(1);
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });
});
