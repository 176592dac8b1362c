import { randomBytes } from 'node:crypto';
import type { Position } from './budget.js';
import type { LimitsApplied, OmittedCounts } from './types.js';

/**
 * Continuation cursors: a `nextCursor` reads the rest of the same immutable capture (the rendered
 * lines are kept, the page is not read again). Cursors belong to one page (the store lives in that
 * page's state, so another page or session cannot find them), expire CURSOR_TTL_MS after their last
 * use, die when the page navigates (checked against the document at use) or closes, and at most
 * MAX_CAPTURES captures are kept per page (the oldest is dropped).
 */

export const CURSOR_TTL_MS = 5 * 60_000;
export const MAX_CAPTURES = 4;
/** Retained text per capture, in code points (seed 003). */
export const MAX_RETAINED_CHARS = 1_000_000;

export interface StoredCapture {
  lines: string[];
  /** The main document's loaderId when captured: a navigation since then invalidates the cursor. */
  documentKey: string;
  maxChars: number;
  maxBytes: number;
  totalChars: number;
  totalBytes: number;
  /** Rendering stopped at the retention cap: the end of `lines` is not the end of the page. */
  retentionCut: boolean;
  url: string;
  title: string;
  /** Repeated on every page of this capture. */
  limitsApplied: LimitsApplied;
  omitted: Partial<OmittedCounts>;
}

interface Slot {
  capture: StoredCapture;
  usedAt: number;
}

export type CursorLookup =
  | { ok: true; capture: StoredCapture; position: Position; id: string }
  | { ok: false; reason: 'malformed' | 'unknown' | 'expired' | 'out_of_range' };

const CURSOR = /^([A-Za-z0-9_-]{12})\.(\d{1,9})\.(\d{1,9})$/;

export class CursorStore {
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = CURSOR_TTL_MS,
    private readonly maxCaptures = MAX_CAPTURES,
  ) {}

  /** Keeps a capture and returns its id; drops the oldest beyond the per-page limit. */
  add(capture: StoredCapture): string {
    this.prune();
    const id = randomBytes(9).toString('base64url');
    this.slots.set(id, { capture, usedAt: this.now() });
    while (this.slots.size > this.maxCaptures) {
      const oldest = this.slots.keys().next().value;
      if (oldest === undefined) break;
      this.slots.delete(oldest);
    }
    return id;
  }

  /** The capture and position a cursor points at, or why it cannot be used. Using a cursor renews its lease. */
  lookup(cursor: string): CursorLookup {
    const match = CURSOR.exec(cursor);
    if (!match) return { ok: false, reason: 'malformed' };
    const [, id = '', line = '', col = ''] = match;
    const slot = this.slots.get(id);
    if (!slot) return { ok: false, reason: 'unknown' };
    if (this.now() - slot.usedAt > this.ttlMs) {
      this.slots.delete(id);
      return { ok: false, reason: 'expired' };
    }
    const position = { line: Number(line), col: Number(col) };
    if (position.line >= slot.capture.lines.length) return { ok: false, reason: 'out_of_range' };
    const lineText = slot.capture.lines[position.line] ?? '';
    if (position.col > 0 && position.col >= Array.from(lineText).length)
      return { ok: false, reason: 'out_of_range' };
    slot.usedAt = this.now();
    // Re-inserting keeps the most recently used capture last, so eviction drops the stalest.
    this.slots.delete(id);
    this.slots.set(id, slot);
    return { ok: true, capture: slot.capture, position, id };
  }

  drop(id: string): void {
    this.slots.delete(id);
  }

  clear(): void {
    this.slots.clear();
  }

  get size(): number {
    return this.slots.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [id, slot] of this.slots) if (now - slot.usedAt > this.ttlMs) this.slots.delete(id);
  }
}

export function formatCursor(id: string, position: Position): string {
  return `${id}.${position.line}.${position.col}`;
}
