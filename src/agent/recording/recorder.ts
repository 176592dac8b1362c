import { open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import { CaptionTrack } from '../../engine/media/captions.js';
import { FRAMES_FPS, FramesRecording, type FramesSummary } from '../../engine/media/frames-recording.js';
import { isScreenRecorderMissing, ScreenRecorder } from '../../engine/media/screen-recorder.js';
import type { ThreadView } from '../threads.js';
import { captionPathFor, resolveOutputPath } from './output-path.js';
import { threadFrameSource } from './thread-frames.js';

/** Frame rate asked of Chromium's screen recorder. */
const MP4_FRAME_RATE = 15;

export type RecordingFormat = 'mp4' | 'avi';

export interface RecordingSettings {
  outputDir: string;
  /** The file name the agent asked for; its extension follows the format produced. */
  outputPath: string | undefined;
  maxDurationMs: number;
  maxWidth: number;
  maxHeight: number;
  everyNthFrame: number;
}

export interface RecordingResult {
  path: string;
  /** `mp4` from Chromium's screen recorder; `avi` (Motion-JPEG) from the frames encoder where the browser has none. */
  format: RecordingFormat;
  /** The subtitle file with the captions, when there were any. */
  captionsPath: string | null;
  /** Frames written (frames encoder only; null for MP4). */
  frames: number | null;
  durationMs: number;
  width: number | null;
  height: number | null;
  bytes: number;
  fps: number | null;
  captions: number;
  /** Why it ended: asked to, reached maxDurationMs or the size cap, or the browser/thread closed. */
  stoppedBy: 'request' | 'maxDurationMs' | 'maxBytes' | 'closed';
}

export interface RecordingStatus {
  path: string;
  format: RecordingFormat;
  elapsedMs: number;
  /** Frames written so far (frames encoder only; null for MP4, which Chromium hands out at stop). */
  frames: number | null;
  maxDurationMs: number;
  captions: number;
}

type Encoder =
  { format: 'mp4'; recorder: ScreenRecorder; file: FileHandle } | { format: 'avi'; frames: FramesRecording };

/**
 * One recording of one session. Where the browser has a screen recorder it is an MP4 of the tab that
 * was current at start (Chromium's `<video>` plays it); otherwise the frames encoder writes a
 * Motion-JPEG AVI that follows the thread's tab switches. Captions go to an `.srt` file beside it
 * (players such as VLC load it with the video); the page itself is never touched.
 */
export class Recording {
  /** When the video began: the screen recorder's start (before the file was opened), else now. */
  private readonly startedAt: number;
  private readonly captions = new CaptionTrack();
  private finishing: Promise<RecordingResult> | undefined;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly encoder: Encoder,
    readonly path: string,
    private readonly maxDurationMs: number,
    private readonly onAutoStop: (result: Promise<RecordingResult>) => void,
  ) {
    this.startedAt = encoder.format === 'mp4' ? encoder.recorder.startedAt.getTime() : Date.now();
  }

  static async start(
    view: ThreadView,
    settings: RecordingSettings,
    onAutoStop: (result: Promise<RecordingResult>) => void,
  ): Promise<Recording> {
    const page = view.peekCurrentPage();
    if (!page)
      throw invalidArgument('action', 'no tab is open in this thread; open a page (browser_goto) first');
    let recorder: ScreenRecorder | undefined;
    try {
      recorder = await ScreenRecorder.start(page.page, {
        maxWidth: settings.maxWidth,
        maxHeight: settings.maxHeight,
        frameRate: MP4_FRAME_RATE,
      });
    } catch (error) {
      if (!isScreenRecorderMissing(error)) throw error;
    }
    const format: RecordingFormat = recorder ? 'mp4' : 'avi';
    let encoder: Encoder;
    let path: string | undefined;
    let recording: Recording | undefined = undefined;
    try {
      path = await resolveOutputPath(settings.outputDir, settings.outputPath, format);
      if (recorder) {
        // Created now (O_EXCL), so a name that is taken is refused at start, not when the video arrives.
        encoder = { format: 'mp4', recorder, file: await open(path, 'wx', 0o644).catch(takenName) };
      } else {
        const source = threadFrameSource(view, settings);
        const onMaxBytes = (summary: Promise<FramesSummary>): void => {
          if (recording) recording.onAutoStop(recording.stop('maxBytes', summary));
        };
        const frames = await FramesRecording.start(path, source, onMaxBytes).catch(takenName);
        encoder = { format: 'avi', frames };
      }
    } catch (error) {
      await recorder?.discard();
      // A start that failed after creating the file leaves nothing behind (a taken name is not ours).
      if (!(error instanceof BrowserMeshError && error.details?.field === 'outputPath') && path !== undefined)
        await rm(path, { force: true });
      throw error;
    }
    recording = new Recording(encoder, path, settings.maxDurationMs, onAutoStop);
    recording.armAutoStop();
    return recording;
  }

  /** The cap counts from the video's start, so the time spent opening the file is not added to it. */
  private armAutoStop(): void {
    const left = Math.max(0, this.maxDurationMs - (Date.now() - this.startedAt));
    this.timer = setTimeout(() => this.onAutoStop(this.stop('maxDurationMs')), left);
    this.timer.unref();
  }

  get isFinished(): boolean {
    return this.finishing !== undefined;
  }

  status(): RecordingStatus {
    return {
      path: this.path,
      format: this.encoder.format,
      elapsedMs: Date.now() - this.startedAt,
      frames: this.encoder.format === 'avi' ? this.encoder.frames.frames : null,
      maxDurationMs: this.maxDurationMs,
      captions: this.captions.count,
    };
  }

  /** Adds a caption shown from now for `durationMs`. */
  caption(text: string, durationMs: number): number {
    return this.captions.add(text, durationMs, this.finishing !== undefined);
  }

  /** Ends the recording and finishes the file. Repeat calls share one result. */
  stop(
    stoppedBy: RecordingResult['stoppedBy'] = 'request',
    frames?: Promise<FramesSummary>,
  ): Promise<RecordingResult> {
    this.finishing ??= this.finish(stoppedBy, frames);
    return this.finishing;
  }

  private async finish(
    stoppedBy: RecordingResult['stoppedBy'],
    framesDone: Promise<FramesSummary> | undefined,
  ): Promise<RecordingResult> {
    clearTimeout(this.timer);
    const video = await this.finishVideo(stoppedBy, framesDone).catch(async (error: unknown) => {
      await rm(this.path, { force: true });
      throw error;
    });
    const captionsPath = this.captions.count > 0 ? captionPathFor(this.path) : null;
    if (captionsPath) await writeFile(captionsPath, this.captions.toSrt(), { flag: 'wx', mode: 0o644 });
    return { path: this.path, captionsPath, captions: this.captions.count, stoppedBy, ...video };
  }

  private async finishVideo(
    stoppedBy: RecordingResult['stoppedBy'],
    framesDone: Promise<FramesSummary> | undefined,
  ): Promise<
    Pick<RecordingResult, 'format' | 'frames' | 'durationMs' | 'width' | 'height' | 'bytes' | 'fps'>
  > {
    if (this.encoder.format === 'avi') {
      const summary = await (framesDone ?? this.encoder.frames.stop(stoppedBy));
      const { frames, durationMs, width, height, bytes, fps } = summary;
      return { format: 'avi', frames, durationMs, width, height, bytes, fps };
    }
    const durationMs = Date.now() - this.startedAt;
    const { recorder, file } = this.encoder;
    try {
      const bytes = await recorder.stopInto(file);
      if (bytes === 0) {
        throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'No frames were captured', {
          details: { reason: 'no_frames' },
        });
      }
      return { format: 'mp4', frames: null, durationMs, width: null, height: null, bytes, fps: null };
    } finally {
      await file.close().catch(() => undefined);
    }
  }
}

/** An existing file (or a planted symlink) is never overwritten: the name is refused. */
function takenName(error: unknown): never {
  const taken = error instanceof Error && 'code' in error && error.code === 'EEXIST';
  throw taken ? invalidArgument('outputPath', 'a file with that name already exists') : error;
}

export { FRAMES_FPS };
