import { describe, expect, it } from 'vitest';

/**
 * The benchmark's notes on missed interactive-only snapshot goals (bench/report/goal-notes.mjs): they
 * are computed from the run's own figures, and say which side of the line a page falls on.
 */

type Row = { tokens: number; refs?: number; tokensWithoutRefs?: number };
type NoteFn = (bm: Row, bmFull: Row | undefined, peerTokens: number, limit: number) => string | undefined;

const modulePath = new URL('../../bench/report/goal-notes.mjs', import.meta.url).href;
const { interactiveSnapshotNote } = (await import(modulePath)) as { interactiveSnapshotNote: NoteFn };

describe('interactive snapshot goal notes', () => {
  it('a page whose names and roles alone exceed the target: out of reach even without refs', () => {
    const note = interactiveSnapshotNote(
      { tokens: 442, refs: 36, tokensWithoutRefs: 334 },
      { tokens: 509 },
      1461,
      0.07,
    );
    expect(note).toContain('out of reach even with no refs');
    expect(note).toContain('0.87×');
  });

  it('a page that leaves 3 to 4 tokens per ref: only three-digit refs fit', () => {
    const note = interactiveSnapshotNote(
      { tokens: 5400, refs: 500, tokensWithoutRefs: 3500 },
      undefined,
      74396,
      0.07,
    );
    expect(note).toContain('3.4 tokens per ref');
    expect(note).toContain('only refs under 1,000 fit');
  });

  it('a page that leaves under 3 tokens per ref: below the shortest ref (/large)', () => {
    const note = interactiveSnapshotNote(
      { tokens: 5383, refs: 875, tokensWithoutRefs: 2758 },
      undefined,
      74396,
      0.07,
    );
    expect(note).toContain('2.8 tokens per ref');
    expect(note).toContain('below the 3 the shortest ref (` @e12`)');
  });

  it('says nothing when the figures are missing or leave room for refs', () => {
    expect(interactiveSnapshotNote({ tokens: 5000 }, undefined, 74396, 0.07)).toBeUndefined();
    expect(
      interactiveSnapshotNote({ tokens: 6000, refs: 100, tokensWithoutRefs: 100 }, undefined, 74396, 0.07),
    ).toBeUndefined();
    expect(
      interactiveSnapshotNote({ tokens: 10, refs: 1, tokensWithoutRefs: 5 }, undefined, 0, 0.07),
    ).toBeUndefined();
  });
});
