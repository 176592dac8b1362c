import { takePage, type Position } from './budget.js';
import { formatCursor, type StoredCapture } from './cursors.js';
import type { LimitsApplied, OmittedCounts } from './types.js';

export type { LimitsApplied } from './types.js';

/** The structured result every face returns: the text plus what was cut, left out and how to go on. */

export interface SnapshotResult {
  /** The snapshot text (or, with `since`, the changes), one element per line. */
  snapshot: string;
  url: string;
  title: string;
  /** Refs in this response's text. */
  refCount: number;
  chars: number;
  bytes: number;
  /** Rough o200k-style token estimate of `snapshot`. */
  estimatedTokens: number;
  /** Size of the whole rendering this response is part of. */
  originalChars: number;
  originalBytes: number;
  /** True when `snapshot` is not the whole rendering (cut by a budget, or a continuation page). */
  partial: boolean;
  truncation: {
    truncated: boolean;
    reason: 'maxChars' | 'maxBytes' | 'retention' | null;
    limit: number | null;
  };
  limitsApplied: LimitsApplied;
  /** Content left out on purpose; only non-zero counts appear. */
  omitted: Partial<OmittedCounts>;
  nextCursor: string | null;
  /**
   * Only on a scoped snapshot that shows nothing, so an empty text never reads as an empty section:
   * `not_rendered` (the element is hidden, aria-hidden or gone) or `no_content` (rendered, but holds
   * no text, control or named element).
   */
  empty?: true;
  emptyReason?: 'not_rendered' | 'no_content';
  /** Present when `since: 'previous'` was asked: base 'none' means no comparable previous snapshot (full text returned). */
  delta?: { base: 'previous' | 'none'; added: number; removed: number; changed: number };
  /**
   * Present when the capture was incremental (asked with `incremental` by an action's snapshot, see
   * docs/snapshots.md "Incremental capture"): of the `nodes` the page sent, `reusedNodes` were the
   * last capture's, unchanged. The text is what a full capture gives.
   */
  capture?: { mode: 'incremental'; reusedNodes: number; nodes: number; sentNodes: number };
}

export interface PageRequest {
  capture: StoredCapture;
  /** Cursor id when the capture is retained (only needed if there is more to read). */
  retain: () => string;
  from: Position;
}

/** Cuts one page from a rendering and describes it. */
export function toResult(
  request: PageRequest,
  extra: Pick<SnapshotResult, 'limitsApplied' | 'omitted' | 'delta'>,
): SnapshotResult {
  const { capture, from } = request;
  const page = takePage(capture.lines, from, capture.maxChars, capture.maxBytes);
  const atStart = from.line === 0 && from.col === 0;
  const retentionEnd = page.next === null && capture.retentionCut;
  const reason = page.reason ?? (retentionEnd ? 'retention' : null);
  const limit =
    reason === 'maxChars'
      ? capture.maxChars
      : reason === 'maxBytes'
        ? capture.maxBytes
        : reason === 'retention'
          ? capture.totalChars
          : null;
  const result: SnapshotResult = {
    snapshot: page.text,
    url: capture.url,
    title: capture.title,
    refCount: countRefs(page.text),
    chars: page.chars,
    bytes: page.bytes,
    estimatedTokens: estimateTokens(page.text),
    originalChars: capture.totalChars,
    originalBytes: capture.totalBytes,
    partial: !atStart || reason !== null,
    truncation: { truncated: reason !== null, reason, limit },
    limitsApplied: extra.limitsApplied,
    omitted: extra.omitted,
    nextCursor: page.next ? formatCursor(request.retain(), page.next) : null,
  };
  if (extra.delta) result.delta = extra.delta;
  return result;
}

function countRefs(text: string): number {
  return text.match(/@e\d+/g)?.length ?? 0;
}

/**
 * A close o200k estimate without a tokenizer: about one token per word (long words split), per group
 * of up to three digits, per symbol, per line break with its indentation, and per non-ASCII
 * character. Within a few percent of gpt-tokenizer on the fixture pages (scripts/measure-snapshot.mjs).
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const match of text.matchAll(TOKEN_PIECES)) {
    const piece = match[0];
    tokens += LETTERS.test(piece) ? Math.ceil(piece.length / 8) : 1;
  }
  return tokens;
}

const TOKEN_PIECES = /[A-Za-z]+|\d{1,3}|\n[ \t]*|[^\sA-Za-z\d]/gu;
const LETTERS = /^[A-Za-z]+$/;

/** Drops zero counts so the result stays small. */
export function nonZero(counts: OmittedCounts): Partial<OmittedCounts> {
  const out: Partial<OmittedCounts> = {};
  for (const [key, value] of Object.entries(counts) as Array<[keyof OmittedCounts, number]>)
    if (value > 0) out[key] = value;
  return out;
}
