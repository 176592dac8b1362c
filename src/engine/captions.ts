/** A caption the agent added while recording: shown from `atMs` (since the start) for `durationMs`. */
export interface Caption {
  atMs: number;
  durationMs: number;
  text: string;
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
