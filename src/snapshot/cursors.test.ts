import { describe, expect, it } from 'vitest';
import { CURSOR_TTL_MS, CursorStore, formatCursor, MAX_CAPTURES, type StoredCapture } from './cursors.js';

function capture(lines = ['a', 'bb', 'ccc']): StoredCapture {
  return {
    lines,
    documentKey: 'L1',
    maxChars: 100,
    maxBytes: 400,
    totalChars: 8,
    totalBytes: 8,
    retentionCut: false,
    url: 'u',
    title: 't',
    limitsApplied: { maxChars: 100, maxBytes: 400 },
    omitted: {},
  };
}

describe('CursorStore', () => {
  it('finds a capture by cursor and position', () => {
    const store = new CursorStore();
    const id = store.add(capture());
    const found = store.lookup(formatCursor(id, { line: 1, col: 1 }));
    expect(found).toMatchObject({ ok: true, id, position: { line: 1, col: 1 } });
  });

  it('refuses malformed, unknown and out-of-range cursors', () => {
    const store = new CursorStore();
    const id = store.add(capture());
    expect(store.lookup('nonsense')).toEqual({ ok: false, reason: 'malformed' });
    expect(store.lookup(formatCursor('AAAAAAAAAAAA', { line: 0, col: 0 }))).toEqual({
      ok: false,
      reason: 'unknown',
    });
    expect(store.lookup(formatCursor(id, { line: 3, col: 0 }))).toEqual({
      ok: false,
      reason: 'out_of_range',
    });
    expect(store.lookup(formatCursor(id, { line: 0, col: 1 }))).toEqual({
      ok: false,
      reason: 'out_of_range',
    });
  });

  it('expires a cursor TTL after its last use, and each use renews it', () => {
    let now = 1_000;
    const store = new CursorStore(() => now);
    const id = store.add(capture());
    now += CURSOR_TTL_MS - 1;
    expect(store.lookup(formatCursor(id, { line: 1, col: 0 })).ok).toBe(true);
    now += CURSOR_TTL_MS - 1;
    expect(store.lookup(formatCursor(id, { line: 2, col: 0 })).ok).toBe(true);
    now += CURSOR_TTL_MS + 1;
    expect(store.lookup(formatCursor(id, { line: 2, col: 0 }))).toEqual({ ok: false, reason: 'expired' });
  });

  it(`keeps at most ${MAX_CAPTURES} captures per page, dropping the least recently used`, () => {
    const store = new CursorStore();
    const ids = Array.from({ length: MAX_CAPTURES }, () => store.add(capture()));
    expect(store.lookup(formatCursor(ids[0]!, { line: 1, col: 0 })).ok).toBe(true);
    store.add(capture());
    expect(store.size).toBe(MAX_CAPTURES);
    expect(store.lookup(formatCursor(ids[1]!, { line: 1, col: 0 }))).toEqual({
      ok: false,
      reason: 'unknown',
    });
    expect(store.lookup(formatCursor(ids[0]!, { line: 1, col: 0 })).ok).toBe(true);
  });
});
