import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { jpegSize, MjpegAviWriter } from './avi-writer.js';

/** Frames per second of the video. Screencast frames only come when the page repaints, so the last frame is repeated to keep time. */
export const FRAMES_FPS = 10;
/** A recording stops by itself past this size, whatever its duration. */
const MAX_RECORDING_BYTES = 256 * 1024 * 1024;
const TICK_MS = 500;

/** Where the JPEG frames come from: one page's screencast, or a thread's screencast that follows its tabs. */
export interface FrameSource {
  /** Starts delivering base64 JPEG frames. */
  start(onFrame: (jpegBase64: string) => void): Promise<void>;
  stop(reason: 'manual' | 'browser_closed'): Promise<void>;
}

export type FramesStopReason = 'request' | 'maxDurationMs' | 'maxBytes' | 'closed';

export interface FramesSummary {
  frames: number;
  durationMs: number;
  width: number;
  height: number;
  bytes: number;
  fps: number;
  stoppedBy: FramesStopReason;
}

/**
 * The frames encoder: screencast frames (JPEG) written as a Motion-JPEG AVI at a fixed frame rate
 * while they arrive. It is the fallback where the browser has no screen recorder: VLC, ffmpeg and
 * QuickTime play the file, browsers' `<video>` does not. The file is created with O_EXCL at start.
 */
export class FramesRecording {
  private readonly startedAt = Date.now();
  private readonly ticker: NodeJS.Timeout;
  private lastJpeg: Buffer | undefined;
  private written = 0;
  private bytes = 0;
  private writes: Promise<void> = Promise.resolve();
  private failure: unknown;
  private finishing: Promise<FramesSummary> | undefined;

  private constructor(
    private readonly source: FrameSource,
    private readonly writer: MjpegAviWriter,
    private readonly onMaxBytes: (result: Promise<FramesSummary>) => void,
  ) {
    // A still page sends no frames: keep the video in step with the clock by repeating the last one.
    this.ticker = setInterval(() => this.enqueue(undefined), TICK_MS);
    this.ticker.unref();
  }

  /** Creates the file at `path` (EEXIST if taken) and starts the frames flowing. */
  static async start(
    path: string,
    source: FrameSource,
    onMaxBytes: (result: Promise<FramesSummary>) => void,
  ): Promise<FramesRecording> {
    const writer = await MjpegAviWriter.create(path, { fps: FRAMES_FPS });
    const recording = new FramesRecording(source, writer, onMaxBytes);
    try {
      await source.start((data) => recording.enqueue(Buffer.from(data, 'base64')));
    } catch (error) {
      await recording.stop('closed').catch(() => undefined);
      throw error;
    }
    return recording;
  }

  get frames(): number {
    return this.written;
  }

  /** Ends the recording and finishes the file. Repeat calls share one result. */
  stop(stoppedBy: FramesStopReason = 'request'): Promise<FramesSummary> {
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
    return Math.floor(((at - this.startedAt) * FRAMES_FPS) / 1000);
  }

  /** Repeats the last frame until `slots` frames are written (the time it stayed on screen). */
  private async fillUntil(slots: number): Promise<void> {
    const jpeg = this.lastJpeg;
    if (!jpeg) return;
    while (this.written < slots) {
      if (this.bytes + jpeg.length > MAX_RECORDING_BYTES) {
        this.onMaxBytes(this.stop('maxBytes'));
        return;
      }
      await this.writer.addFrame(jpeg);
      this.written++;
      this.bytes += jpeg.length + 8;
    }
  }

  private async finish(stoppedBy: FramesStopReason): Promise<FramesSummary> {
    clearInterval(this.ticker);
    await this.source.stop(stoppedBy === 'closed' ? 'browser_closed' : 'manual').catch(() => undefined);
    const endedAt = Date.now();
    await this.writes;
    // The last frame stays on screen until the end (at least one frame in all).
    if (this.failure === undefined)
      await this.fillUntil(Math.max(1, Math.ceil(((endedAt - this.startedAt) * FRAMES_FPS) / 1000))).catch(
        (error: unknown) => {
          this.failure = error;
        },
      );
    if (this.failure !== undefined || this.writer.frameCount === 0) {
      await this.writer.abort();
      throw new BrowserMeshError(
        ErrorCodes.BROWSER_ERROR,
        this.failure === undefined ? 'No frames were captured' : 'The recording could not be written',
        {
          cause: this.failure,
          details: { reason: this.failure === undefined ? 'no_frames' : 'write_failed' },
          recoveryHint: 'Make sure a page is open before starting a recording.',
        },
      );
    }
    const summary = await this.writer.finish();
    return { ...summary, durationMs: endedAt - this.startedAt, stoppedBy };
  }
}
