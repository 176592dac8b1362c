import { open, writeFile } from 'node:fs/promises';
import { CaptionTrack } from './captions.js';
import { FramesRecording, type FrameSource } from './frames-recording.js';
import type { ManagedPage } from '../page.js';
import { startPageScreencast, type PageScreencast } from './page-screencast.js';
import { isScreenRecorderMissing, ScreenRecorder, type ScreenRecordingOptions } from './screen-recorder.js';
import type { SessionFileInfo, SessionFiles } from '../files/session-files.js';

export type { ScreenRecordingOptions } from './screen-recorder.js';

/** `mp4`: Chromium's screen recorder. `avi`: the frames encoder (Motion-JPEG), where the browser has none. */
export type RecordingFormat = 'mp4' | 'avi';

/** A stopped recording: the video, and its captions as SubRip subtitles when there were any. */
export interface SavedRecording {
  video: SessionFileInfo;
  captions: SessionFileInfo | null;
  format: RecordingFormat;
}

type Encoder =
  { format: 'mp4'; recorder: ScreenRecorder } | { format: 'avi'; frames: FramesRecording; fileId: string };

/**
 * One page recorded into the session's files: an MP4 from Chromium's own screen recorder where the
 * browser has one, otherwise the frames encoder's Motion-JPEG AVI (the result says which). Captions
 * are kept beside the video as SubRip subtitles in both cases.
 */
export class PageRecording {
  private stopped: Promise<SavedRecording> | undefined;
  readonly captions = new CaptionTrack();

  private constructor(
    readonly page: ManagedPage,
    private readonly encoder: Encoder,
    private readonly files: SessionFiles,
    readonly startedAt: Date,
  ) {}

  get format(): RecordingFormat {
    return this.encoder.format;
  }

  /** Starts recording: MP4 where the browser has a screen recorder, else the frames encoder. */
  static async start(
    page: ManagedPage,
    files: SessionFiles,
    options: ScreenRecordingOptions,
  ): Promise<PageRecording> {
    const startedAt = new Date();
    try {
      const recorder = await ScreenRecorder.start(page.page, options);
      return new PageRecording(page, { format: 'mp4', recorder }, files, startedAt);
    } catch (error) {
      if (!isScreenRecorderMissing(error)) throw error;
    }
    const { fileId, path } = await files.allocate('recording', videoName(page, startedAt, 'avi'));
    try {
      const source = pageFrameSource(page, options);
      const frames = await FramesRecording.start(path, source, () => undefined);
      return new PageRecording(page, { format: 'avi', frames, fileId }, files, startedAt);
    } catch (error) {
      await files.abort(fileId).catch(() => undefined);
      throw error;
    }
  }

  /** Adds a caption shown from now for `durationMs`; returns its offset in the video (ms). */
  caption(text: string, durationMs: number): number {
    return this.captions.add(text, durationMs, this.stopped !== undefined);
  }

  /** Stops and stores the video and its captions (LIMIT_EXCEEDED over a quota). Stopping again gives the same result. */
  stop(): Promise<SavedRecording> {
    this.stopped ??= this.save();
    return this.stopped;
  }

  private async save(): Promise<SavedRecording> {
    const video =
      this.encoder.format === 'mp4' ? await this.saveMp4(this.encoder.recorder) : await this.saveAvi();
    const format = this.encoder.format;
    if (this.captions.count === 0) return { video, captions: null, format };
    // Next to the video, same stem: players (VLC, mpv) load it with the video.
    const { fileId, path } = await this.files.allocate('recording', video.name.replace(/\.\w+$/, '.srt'));
    await writeFile(path, this.captions.toSrt(), { mode: 0o600 });
    const captions = await this.files.commit(fileId, { mimeType: 'application/x-subrip' });
    return { video, captions, format };
  }

  private async saveMp4(recorder: ScreenRecorder): Promise<SessionFileInfo> {
    let allocated: { fileId: string; path: string };
    try {
      allocated = await this.files.allocate('recording', videoName(this.page, this.startedAt, 'mp4'));
    } catch (error) {
      await recorder.discard();
      throw error;
    }
    try {
      const file = await open(allocated.path, 'wx', 0o600);
      try {
        await recorder.stopInto(file);
      } finally {
        await file.close().catch(() => undefined);
      }
    } catch (error) {
      await this.files.abort(allocated.fileId).catch(() => undefined);
      throw error;
    }
    return this.files.commit(allocated.fileId, { mimeType: 'video/mp4' });
  }

  private async saveAvi(): Promise<SessionFileInfo> {
    if (this.encoder.format !== 'avi') throw new Error('not an AVI recording');
    const { frames, fileId } = this.encoder;
    try {
      await frames.stop('request');
    } catch (error) {
      await this.files.abort(fileId).catch(() => undefined);
      throw error;
    }
    return this.files.commit(fileId, { mimeType: 'video/x-msvideo' });
  }
}

function videoName(page: ManagedPage, startedAt: Date, ext: RecordingFormat): string {
  return `recording-${page.id}-${startedAt.toISOString().replace(/[:.]/g, '-')}.${ext}`;
}

/** One page's screencast as JPEG frames for the frames encoder. */
function pageFrameSource(page: ManagedPage, options: ScreenRecordingOptions): FrameSource {
  let cast: PageScreencast | undefined;
  return {
    async start(onFrame) {
      const params = { format: 'jpeg' as const, quality: 70, everyNthFrame: 1, ...options };
      cast = await startPageScreencast(page, params, (frame) => onFrame(frame.data));
    },
    async stop() {
      await cast?.stop();
    },
  };
}
