import type { FileHandle } from 'node:fs/promises';
import type { CDPSession, Page } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';

export interface ScreenRecordingOptions {
  maxWidth: number;
  maxHeight: number;
  frameRate: number;
}

const READ_CHUNK_BYTES = 1 << 20;

/**
 * Chromium's own screen recorder (CDP `Page.startScreenRecording`) on one page: an MP4 that
 * Chromium's `<video>` plays. Chromium hands the video out only when recording stops (reading its
 * stream earlier fails), so a page closed mid-recording loses its video. Each recorder has its own
 * CDP session, so it never disturbs a live view's or another recording's screencast.
 */
export class ScreenRecorder {
  private constructor(
    private readonly cdp: CDPSession,
    readonly startedAt: Date,
  ) {}

  /**
   * Starts recording. A browser without the method (an older Chromium, another build behind a CDP
   * endpoint) gives NOT_SUPPORTED with `details.feature`: see {@link isScreenRecorderMissing}.
   */
  static async start(page: Page, options: ScreenRecordingOptions): Promise<ScreenRecorder> {
    const cdp = await page.context().newCDPSession(page);
    try {
      await cdp.send('Page.startScreenRecording', options);
    } catch (error) {
      await cdp.detach().catch(() => undefined);
      throw toStartError(error);
    }
    return new ScreenRecorder(cdp, new Date());
  }

  /** Stops and copies the video into `file` in chunks (never the whole video in memory); returns its bytes. */
  async stopInto(file: FileHandle): Promise<number> {
    try {
      const { stream } = await this.cdp.send('Page.stopScreenRecording');
      let bytes = 0;
      try {
        for (;;) {
          const chunk = await this.cdp.send('IO.read', { handle: stream, size: READ_CHUNK_BYTES });
          const data = Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8');
          await file.write(data);
          bytes += data.length;
          if (chunk.eof) break;
        }
      } finally {
        await this.cdp.send('IO.close', { handle: stream }).catch(() => undefined);
      }
      return bytes;
    } catch (error) {
      throw error instanceof BrowserMeshError
        ? error
        : new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The screen recording could not be read', {
            details: { reason: 'stop_failed' },
            cause: error,
            recoveryHint: 'Stop a recording before its page closes.',
          });
    } finally {
      await this.cdp.detach().catch(() => undefined);
    }
  }

  /** Stops without keeping the video (best effort). */
  async discard(): Promise<void> {
    await this.cdp.send('Page.stopScreenRecording').catch(() => undefined);
    await this.cdp.detach().catch(() => undefined);
  }
}

/** True for the NOT_SUPPORTED error of a browser that has no screen recorder: the frames encoder takes over. */
export function isScreenRecorderMissing(error: unknown): boolean {
  return (
    error instanceof BrowserMeshError &&
    error.code === ErrorCodes.NOT_SUPPORTED &&
    error.details?.feature === 'Page.startScreenRecording'
  );
}

function toStartError(error: unknown): BrowserMeshError {
  const text = error instanceof Error ? error.message : '';
  if (/already active/i.test(text)) {
    return new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'action: this page is already being recorded', {
      details: { field: 'action' },
    });
  }
  // CDP's "method not found" (-32601: "'Page.startScreenRecording' wasn't found"): this browser has none.
  if (/wasn't found|-32601|method not found/i.test(text)) {
    return new BrowserMeshError(
      ErrorCodes.NOT_SUPPORTED,
      'This browser has no screen recorder (CDP Page.startScreenRecording)',
      { details: { feature: 'Page.startScreenRecording' }, cause: error },
    );
  }
  return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The screen recording could not start', {
    details: { reason: 'start_failed' },
    cause: error,
  });
}
