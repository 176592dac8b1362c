/**
 * Traces and recordings are session files like downloads: browser_files (published with the watch
 * profile too) lists them and reads them back bounded (subtitles as text, videos and zips as embedded
 * resources, paged by offset); they count against the same quotas and go with the session's folder.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

type FileInfo = {
  fileId: string;
  kind: string;
  name: string;
  bytes: number;
  mimeType: string | null;
  state: string;
};
type FileOut = { fileId: string; name: string; bytes: number; mimeType: string | null };

const TICKER = `<!doctype html><title>Ticker</title><h1 id="n">0</h1>
<script>let i=0;setInterval(()=>{document.getElementById('n').textContent=String(++i);
document.body.style.background=i%2?'#fde':'#def'},100)</script>`;

let h: McpHarness;
let site: FixtureServer;

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
// No 'files' profile: the watch profile alone must be enough to fetch what it produced.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'watch'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  site.route('/watch-files/ticker', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(TICKER);
  });
});

function blobOf(result: CallToolResult): { uri: string; mimeType?: string; blob: string } {
  const block = result.content.find((item) => item.type === 'resource');
  if (!block || block.type !== 'resource' || !('blob' in block.resource)) throw new Error('no embedded blob');
  return block.resource as { uri: string; mimeType?: string; blob: string };
}

async function untilTicked(s: { sessionId: string; pageId: string }, n: number): Promise<void> {
  const page = h.mesh.getSession(s.sessionId).getPage(s.pageId).page;
  const from = Number(await page.locator('#n').textContent());
  await page.waitForFunction(
    ([a, b]) => Number(document.getElementById('n')?.textContent) >= a! + b!,
    [from, n],
  );
}

describe('traces and recordings through browser_files', () => {
  test('lists them and reads them back bounded; the folder goes with the session', async () => {
    const s = await h.session();
    await h.ok('browser_trace', { sessionId: s.sessionId, action: 'start' });
    await h.ok('browser_navigate', { ...s, url: site.url('/watch-files/ticker') });
    await h.ok('browser_recording', { ...s, action: 'start' });
    await h.ok('browser_recording', { ...s, action: 'caption', text: 'Step one' });
    await untilTicked(s, 10);
    const rec = await h.ok<{ files: Array<{ file: FileOut; captions: FileOut; format: string }> }>(
      'browser_recording',
      { sessionId: s.sessionId, action: 'stop' },
    );
    expect(rec.files[0]?.format).toBe('mp4');
    const trace = await h.ok<{ file: FileOut }>('browser_trace', { sessionId: s.sessionId, action: 'stop' });

    const listed = (await h.ok<{ files: FileInfo[] }>('browser_files', { sessionId: s.sessionId })).files;
    const byId = new Map(listed.map((file) => [file.fileId, file]));
    expect(byId.get(trace.file.fileId)).toMatchObject({
      kind: 'trace',
      mimeType: 'application/zip',
      state: 'completed',
    });
    const video = rec.files[0]!.file;
    expect(byId.get(video.fileId)).toMatchObject({
      kind: 'recording',
      mimeType: 'video/mp4',
      bytes: video.bytes,
    });
    expect(byId.get(rec.files[0]!.captions.fileId)).toMatchObject({
      kind: 'recording',
      mimeType: 'application/x-subrip',
    });
    expect(JSON.stringify(listed)).not.toContain(h.mesh.config.dataDir);

    // Subtitles come back as text.
    const srt = await h.ok<{ text: string }>('browser_files', {
      sessionId: s.sessionId,
      action: 'read',
      fileId: rec.files[0]!.captions.fileId,
    });
    expect(srt.text).toContain('Step one');

    // The video as an embedded resource, in bounded pages that add up to the file on disk.
    const folder = h.mesh.getSession(s.sessionId).files.folder;
    const onDisk = await readFile(join(folder, video.name));
    const first = await h.call('browser_files', {
      sessionId: s.sessionId,
      action: 'read',
      fileId: video.fileId,
      maxBytes: 4096,
    });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({
      truncated: true,
      totalBytes: onDisk.length,
      nextOffset: 4096,
    });
    const firstBlob = blobOf(first);
    expect(firstBlob.mimeType).toBe('video/mp4');
    expect(firstBlob.uri).toBe(`browsermesh://sessions/${s.sessionId}/files/${video.fileId}`);
    const rest = await h.call('browser_files', {
      sessionId: s.sessionId,
      action: 'read',
      fileId: video.fileId,
      offset: 4096,
      maxBytes: 1_048_576,
    });
    const whole = Buffer.concat([
      Buffer.from(firstBlob.blob, 'base64'),
      Buffer.from(blobOf(rest).blob, 'base64'),
    ]);
    if (onDisk.length <= 4096 + 1_048_576) expect(whole.equals(onDisk)).toBe(true);
    else expect(whole.equals(onDisk.subarray(0, whole.length))).toBe(true);

    const zip = blobOf(
      await h.call('browser_files', {
        sessionId: s.sessionId,
        action: 'read',
        fileId: trace.file.fileId,
        maxBytes: 2,
      }),
    );
    expect(zip.mimeType).toBe('application/zip');
    expect(Buffer.from(zip.blob, 'base64').toString('latin1')).toBe('PK');

    // Bad inputs are coded and change nothing.
    expect(
      (await h.err('browser_files', { sessionId: s.sessionId, action: 'read', fileId: 'f_nope' })).code,
    ).toBe('FILE_NOT_FOUND');
    expect(
      (
        await h.err('browser_files', {
          sessionId: s.sessionId,
          action: 'read',
          fileId: video.fileId,
          maxBytes: 2_000_000,
        })
      ).code,
    ).toBe('INVALID_ARGUMENT');
    expect((await h.err('browser_files', { sessionId: s.sessionId, action: 'read' })).code).toBe(
      'INVALID_ARGUMENT',
    );

    // Removing a recording frees it; the trace stays.
    await h.ok('browser_files', { sessionId: s.sessionId, action: 'remove', fileId: video.fileId });
    await expect(stat(join(folder, video.name))).rejects.toThrow();
    await stat(join(folder, trace.file.name));

    // The folder, traces and recordings included, goes with the session.
    await h.ok('browser_session_close', { sessionId: s.sessionId });
    await expect(stat(folder)).rejects.toThrow();
  });

  test('refuses a recording over the session quota with LIMIT_EXCEEDED, leaves no file and keeps working', async () => {
    const small = await McpHarness.start({ tools: ['core', 'watch'], sessionFileQuotaBytes: 1024 });
    try {
      const s = await small.session();
      await small.ok('browser_navigate', { ...s, url: site.url('/watch-files/ticker') });
      await small.ok('browser_recording', { ...s, action: 'start' });
      const page = small.mesh.getSession(s.sessionId).getPage(s.pageId).page;
      await page.waitForFunction(() => Number(document.getElementById('n')?.textContent) >= 10);
      const stopped = await small.ok<{ files: Array<{ file: FileOut | null; errorCode: string | null }> }>(
        'browser_recording',
        { sessionId: s.sessionId, action: 'stop' },
      );
      expect(stopped.files[0]).toMatchObject({ file: null, errorCode: 'LIMIT_EXCEEDED' });
      const files = (await small.ok<{ files: FileInfo[] }>('browser_files', { sessionId: s.sessionId }))
        .files;
      expect(files.filter((file) => file.state === 'completed')).toEqual([]);
      const folder = small.mesh.getSession(s.sessionId).files.folder;
      for (const file of files) await expect(stat(join(folder, file.name))).rejects.toThrow();
      expect((await small.ok<{ title: string }>('browser_get_title', s)).title).toBe('Ticker');
    } finally {
      await small.close();
    }
  });
});
