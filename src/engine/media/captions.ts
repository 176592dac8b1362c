import { BrowserMeshError, ErrorCodes } from '../../errors.js';

/** A caption the agent added while recording: shown from `atMs` (since the start) for `durationMs`. */
export interface Caption {
  atMs: number;
  durationMs: number;
  text: string;
}

const MAX_CAPTIONS = 500;

/**
 * The captions of one recording, timed from its start. Both the MP4 recorder and the frames
 * encoder keep them this way and store them beside the video as SubRip subtitles, so the page
 * itself is never touched.
 */
export class CaptionTrack {
  private readonly startedAt = Date.now();
  private readonly items: Caption[] = [];

  get count(): number {
    return this.items.length;
  }

  /** Adds a caption shown from now; returns its offset in ms. LIMIT_EXCEEDED past 500 or once stopped. */
  add(text: string, durationMs: number, closed = false): number {
    if (closed || this.items.length >= MAX_CAPTIONS) {
      throw new BrowserMeshError(
        ErrorCodes.LIMIT_EXCEEDED,
        `A recording holds at most ${MAX_CAPTIONS} captions`,
        { details: { limit: MAX_CAPTIONS, field: 'text' } },
      );
    }
    const atMs = Date.now() - this.startedAt;
    this.items.push({ atMs, durationMs, text });
    return atMs;
  }

  toSrt(): string {
    return toSrt(this.items);
  }
}

/** SubRip subtitles; a newer caption ends the one before it, so two never overlap. */
export function toSrt(captions: readonly Caption[]): string {
  return captions
    .map((caption, i) => {
      const next = captions[i + 1];
      const end = Math.min(caption.atMs + caption.durationMs, next ? next.atMs : Number.POSITIVE_INFINITY);
      const text = caption.text.replace(/\r?\n/g, ' ').trim();
      return `${i + 1}\n${srtTime(caption.atMs)} --> ${srtTime(Math.max(end, caption.atMs + 1))}\n${text}\n`;
    })
    .join('\n');
}

function srtTime(ms: number): string {
  const pad = (value: number, width: number): string => String(value).padStart(width, '0');
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)},${pad(Math.floor(ms % 1000), 3)}`;
}
