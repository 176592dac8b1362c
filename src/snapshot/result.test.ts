import { describe, expect, it } from 'vitest';
import { estimateTokens, nonZero, toResult } from './result.js';
import type { StoredCapture } from './cursors.js';

describe('estimateTokens', () => {
  it('counts words, digit groups, symbols and line breaks', () => {
    expect(estimateTokens('[link @e14] station worker')).toBe(8);
    expect(estimateTokens('')).toBe(0);
  });
});

describe('toResult', () => {
  const capture: StoredCapture = {
    lines: ['[document] T', '  [button @e1] One', '  [button @e2] Two'],
    documentKey: 'L1',
    maxChars: 40,
    maxBytes: 400,
    totalChars: 50,
    totalBytes: 50,
    retentionCut: false,
    url: 'http://x/',
    title: 'T',
    limitsApplied: { maxChars: 40, maxBytes: 400 },
    omitted: {},
  };

  it('describes a cut page with its cursor', () => {
    const result = toResult({ capture, from: { line: 0, col: 0 }, retain: () => 'IDIDIDIDIDID' }, capture);
    expect(result).toMatchObject({
      snapshot: '[document] T\n  [button @e1] One',
      refCount: 1,
      partial: true,
      truncation: { truncated: true, reason: 'maxChars', limit: 40 },
      nextCursor: 'IDIDIDIDIDID.2.0',
    });
  });

  it('marks the last page of a continuation as partial but not truncated', () => {
    const result = toResult({ capture, from: { line: 2, col: 0 }, retain: () => 'unused' }, capture);
    expect(result).toMatchObject({
      snapshot: '  [button @e2] Two',
      partial: true,
      truncation: { truncated: false, reason: null },
      nextCursor: null,
    });
  });

  it('keeps only non-zero omission counts', () => {
    expect(
      nonZero({ ariaHidden: 0, hidden: 2, maxDepth: 0, maxChildren: 0, frames: 0, longText: 1 }),
    ).toEqual({ hidden: 2, longText: 1 });
  });
});
