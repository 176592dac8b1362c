import { rm, writeFile } from 'node:fs/promises';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import type { ThreadView } from '../threads.js';
import { jpegSize, MjpegAviWriter } from './avi-writer.js';
import { captionPathFor } from './output-path.js';
import { toSrt, type Caption } from '../../engine/captions.js';
import { ScreencastStream } from './screencast-stream.js';

/** Frames per second of the video. Screencast frames only come when the page repaints, so the last frame is repeated to keep time. */
export const RECORDING_FPS = 10;
/** A recording stops by itself past this size, whatever its duration. */
const MAX_RECORDING_BYTES = 256 * 1024 * 1024;
const MAX_CAPTIONS = 500;
const TICK_MS = 500;

export interface RecordingSettings {
  path: string;
  maxDurationMs: number;
  maxWidth: number;
  maxHeight: number;
  everyNthFrame: number;
}

export interface RecordingResult {
  path: string;
  /** The subtitle file with the captions, when there were any. */
  captionsPath: string | null;
  frames: number;
  durationMs: number;
  width: number;
  height: number;
  bytes: number;
  fps: number;
  captions: number;
  /** Why it ended: asked to, reached maxDurationMs or the size cap, or the browser/thread closed. */
  stoppedBy: 'request' | 'maxDurationMs' | 'maxBytes' | 'closed';
}

export interface RecordingStatus {
  path: string;
  elapsedMs: number;
  frames: number;
  maxDurationMs: number;
  captions: number;
}

/**
 * One recording of one session: screencast frames (JPEG) of the thread's current tab, written as
 * a Motion-JPEG AVI at a fixed frame rate while they arrive. Captions go to an `.srt` file beside it
 * (players such as VLC load it with the video); the page itself is never touched.
 */
export class Recording {
  private readonly startedAt = Date.now();
  private readonly ticker: NodeJS.Timeout;
  private lastJpeg: Buffer | undefined;
  private written = 0;
  private bytes = 0;
  private readonly captions: Caption[] = [];
  private writes: Promise<void> = Promise.resolve();
  private failure: unknown;
  private finishing: Promise<RecordingResult> | undefined;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly stream: ScreencastStream,
    private readonly writer: MjpegAviWriter,
    readonly settings: RecordingSettings,
    private readonly onAutoStop: (result: Promise<RecordingResult>) => void,
  ) {
    // A still page sends no frames: keep the video in step with the clock by repeating the last one.
    this.ticker = setInterval(() => this.enqueue(undefined), TICK_MS);
    this.ticker.unref();
  }

  static async start(
    view: ThreadView,
    settings: RecordingSettings,
    onAutoStop: (result: Promise<RecordingResult>) => void,
  ): Promise<Recording> {
    // The file is created now, so a name that is taken is refused at start, not at the first frame.
    const writer = await MjpegAviWriter.create(settings.path, { fps: RECORDING_FPS }).catch(
      (error: unknown) => {
        const taken = error instanceof Error && 'code' in error && error.code === 'EEXIST';
        throw taken ? invalidArgument('outputPath', 'a file with that name already exists') : error;
      },
    );
    const stream = new ScreencastStream(view, {
      format: 'jpeg',
      quality: 70,
      maxWidth: settings.maxWidth,
      maxHeight: settings.maxHeight,
      everyNthFrame: settings.everyNthFrame,
    });
    const recording = new Recording(stream, writer, settings, onAutoStop);
    stream.on('frame', (frame) => recording.enqueue(Buffer.from(frame.data, 'base64')));
    stream.on('error', () => undefined);
    try {
      await stream.start();
    } catch (error) {
      await recording.stop('closed').catch(() => undefined);
      throw error;
    }
    // The duration limit counts once frames can flow: a slow screencast start (a loaded machine) must
    // not end the recording before it began, nor call back before the caller holds the recording.
    recording.armAutoStop();
    return recording;
  }

  private armAutoStop(): void {
    if (this.finishing) return;
    this.timer = setTimeout(() => this.onAutoStop(this.stop('maxDurationMs')), this.settings.maxDurationMs);
    this.timer.unref();
  }

  get isFinished(): boolean {
    return this.finishing !== undefined;
  }

  status(): RecordingStatus {
    return {
      path: this.settings.path,
      elapsedMs: Date.now() - this.startedAt,
      frames: this.written,
      maxDurationMs: this.settings.maxDurationMs,
      captions: this.captions.length,
    };
  }

  /** Adds a caption shown from now for `durationMs`. */
  caption(text: string, durationMs: number): number {
    if (this.captions.length >= MAX_CAPTIONS) {
      throw new BrowserMeshError(
        ErrorCodes.LIMIT_EXCEEDED,
        `A recording holds at most ${MAX_CAPTIONS} captions`,
        { details: { limit: MAX_CAPTIONS } },
      );
    }
    const atMs = Date.now() - this.startedAt;
    this.captions.push({ atMs, durationMs, text });
    return atMs;
  }

  /** Ends the recording and finishes the file. Repeat calls share one result. */
  stop(stoppedBy: RecordingResult['stoppedBy'] = 'request'): Promise<RecordingResult> {
    this.finishing ??= this.finish(stoppedBy);
    return this.finishing;
  }

  /** A new frame (or, undefined, a clock tick): fill the time since the last one, then remember it. */
  private enqueue(jpeg: Buffer | undefined): void {
    if (this.finishing || (jpeg && jpegSize(jpeg) === undefined)) return;
    const at = Date.now();
    this.writes = this.writes
      .then(async () => {
        if (this.failure !== undefined || this.finishing) return;
        await this.fillUntil(this.slotAt(at));
        if (jpeg) this.lastJpeg = jpeg;
      })
      .catch((error: unknown) => {
        this.failure = error;
      });
  }

  /** Index of the frame slot that time `at` falls in. */
  private slotAt(at: number): number {
    return Math.floor(((at - this.startedAt) * RECORDING_FPS) / 1000);
  }

  /** Repeats the last frame until `slots` frames are written (the time it stayed on screen). */
  private async fillUntil(slots: number): Promise<void> {
    const jpeg = this.lastJpeg;
    if (!jpeg) return;
    while (this.written < slots) {
      if (this.bytes + jpeg.length > MAX_RECORDING_BYTES) {
        this.onAutoStop(this.stop('maxBytes'));
        return;
      }
      await this.writer.addFrame(jpeg);
      this.written++;
      this.bytes += jpeg.length + 8;
    }
  }

  private async finish(stoppedBy: RecordingResult['stoppedBy']): Promise<RecordingResult> {
    clearTimeout(this.timer);
    clearInterval(this.ticker);
    await this.stream.stop(stoppedBy === 'closed' ? 'browser_closed' : 'manual').catch(() => undefined);
    const endedAt = Date.now();
    await this.writes;
    // The last frame stays on screen until the end (at least one frame in all).
    if (this.failure === undefined)
      await this.fillUntil(Math.max(1, Math.ceil(((endedAt - this.startedAt) * RECORDING_FPS) / 1000))).catch(
        (error: unknown) => {
          this.failure = error;
        },
      );
    const writer = this.writer;
    if (this.failure !== undefined || writer.frameCount === 0) {
      await writer.abort();
      await rm(this.settings.path, { force: true });
      throw new BrowserMeshError(
        ErrorCodes.BROWSER_ERROR,
        this.failure === undefined ? 'No frames were captured' : 'The recording could not be written',
        {
          cause: this.failure,
          details: { reason: this.failure === undefined ? 'no_frames' : 'write_failed' },
          recoveryHint: 'Make sure a page is open (browser_goto) before starting a recording.',
        },
      );
    }
    const summary = await writer.finish();
    const captionsPath = this.captions.length > 0 ? captionPathFor(this.settings.path) : null;
    if (captionsPath) await writeFile(captionsPath, toSrt(this.captions), { flag: 'wx', mode: 0o644 });
    return {
      path: this.settings.path,
      captionsPath,
      frames: summary.frames,
      durationMs: endedAt - this.startedAt,
      width: summary.width,
      height: summary.height,
      bytes: summary.bytes,
      fps: summary.fps,
      captions: this.captions.length,
      stoppedBy,
    };
  }
}
