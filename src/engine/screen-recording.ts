import { open, writeFile } from 'node:fs/promises';
import type { CDPSession } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { toSrt, type Caption } from './captions.js';
import type { ManagedPage } from './page.js';
import type { SessionFileInfo, SessionFiles } from './session-files.js';

export interface ScreenRecordingOptions {
  maxWidth: number;
  maxHeight: number;
  frameRate: number;
}

const READ_CHUNK_BYTES = 1 << 20;
const MAX_CAPTIONS = 500;

/** A stopped recording: the video, and its captions as SubRip subtitles when there were any. */
export interface SavedRecording {
  video: SessionFileInfo;
  captions: SessionFileInfo | null;
}

/**
 * One page recorded by Chromium's own screen recorder (CDP `Page.startScreenRecording`): an MP4
 * that Chromium's `<video>` plays. Chromium hands the file out only when recording stops (reading
 * its stream earlier fails), so a page closed mid-recording loses its video: stop first. Each
 * recording has its own CDP session, so it never disturbs a dashboard's or another recording's
 * screencast.
 */
export class PageRecording {
  private stopped: Promise<SavedRecording> | undefined;
  private readonly captions: Caption[] = [];

  private constructor(
    readonly page: ManagedPage,
    private readonly cdp: CDPSession,
    private readonly files: SessionFiles,
    readonly startedAt: Date,
  ) {}

  /** Starts recording; NOT_SUPPORTED when this Chromium has no screen recorder. */
  static async start(
    page: ManagedPage,
    files: SessionFiles,
    options: ScreenRecordingOptions,
  ): Promise<PageRecording> {
    const cdp = await page.page.context().newCDPSession(page.page);
    try {
      await cdp.send('Page.startScreenRecording', options);
    } catch (error) {
      await cdp.detach().catch(() => undefined);
      throw toStartError(error);
    }
    return new PageRecording(page, cdp, files, new Date());
  }

  /** Adds a caption shown from now for `durationMs`; returns its offset in the video (ms). */
  caption(text: string, durationMs: number): number {
    if (this.stopped || this.captions.length >= MAX_CAPTIONS) {
      throw new BrowserMeshError(
        ErrorCodes.LIMIT_EXCEEDED,
        `A recording holds at most ${MAX_CAPTIONS} captions`,
        {
          details: { limit: MAX_CAPTIONS, field: 'text' },
        },
      );
    }
    const atMs = Date.now() - this.startedAt.getTime();
    this.captions.push({ atMs, durationMs, text });
    return atMs;
  }

  /** Stops and stores the MP4 and its captions (LIMIT_EXCEEDED over a quota). Stopping again gives the same result. */
  stop(): Promise<SavedRecording> {
    this.stopped ??= this.save();
    return this.stopped;
  }

  private async save(): Promise<SavedRecording> {
    const video = await this.saveVideo();
    if (this.captions.length === 0) return { video, captions: null };
    // Next to the video, same stem: players (VLC, mpv) load it with the video.
    const { fileId, path } = await this.files.allocate('recording', video.name.replace(/\.mp4$/, '.srt'));
    await writeFile(path, toSrt(this.captions), { mode: 0o600 });
    return { video, captions: await this.files.commit(fileId, { mimeType: 'application/x-subrip' }) };
  }

  private async saveVideo(): Promise<SessionFileInfo> {
    try {
      const { stream } = await this.cdp.send('Page.stopScreenRecording');
      const stamp = this.startedAt.toISOString().replace(/[:.]/g, '-');
      const { fileId, path } = await this.files.allocate(
        'recording',
        `recording-${this.page.id}-${stamp}.mp4`,
      );
      try {
        await this.copyStream(stream, path);
      } catch (error) {
        await this.files.abort(fileId).catch(() => undefined);
        throw error;
      }
      return await this.files.commit(fileId, { mimeType: 'video/mp4' });
    } finally {
      await this.cdp.detach().catch(() => undefined);
    }
  }

  /** Copies the recorder's stream to the file in chunks, never holding the whole video in memory. */
  private async copyStream(stream: string, path: string): Promise<void> {
    const file = await open(path, 'w', 0o600);
    try {
      for (;;) {
        const chunk = await this.cdp.send('IO.read', { handle: stream, size: READ_CHUNK_BYTES });
        await file.write(Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8'));
        if (chunk.eof) break;
      }
    } finally {
      await file.close().catch(() => undefined);
      await this.cdp.send('IO.close', { handle: stream }).catch(() => undefined);
    }
  }
}

function toStartError(error: unknown): BrowserMeshError {
  const text = error instanceof Error ? error.message : '';
  if (/already active/i.test(text)) {
    return new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'action: this page is already being recorded', {
      details: { field: 'action' },
    });
  }
  return new BrowserMeshError(
    ErrorCodes.NOT_SUPPORTED,
    'This browser has no screen recorder (CDP Page.startScreenRecording); MP4 recording needs a recent Chromium',
    { details: { feature: 'Page.startScreenRecording' }, cause: error },
  );
}
