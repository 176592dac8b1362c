import { describe, expect, it } from 'vitest';
import { documentKey, normalizeRef, RefTable } from './refs.js';

const where = (backendNodeId: number, loaderId = 'L1') => ({
  targetKey: 'main',
  frameId: 'F1',
  loaderId,
  backendNodeId,
  owners: [],
});

describe('RefTable', () => {
  it('keeps the same ref for the same node of the same document', () => {
    const table = new RefTable();
    const ref = table.assign(where(7));
    expect(table.assign(where(7))).toBe(ref);
    expect(table.assign(where(8))).not.toBe(ref);
  });

  it('never reuses a ref for a new document, and forgets refs of gone documents', () => {
    const table = new RefTable();
    const old = table.assign(where(7, 'L1'));
    const fresh = table.assign(where(7, 'L2'));
    expect(fresh).not.toBe(old);
    table.retainDocuments(new Set([documentKey('main', 'F1', 'L2')]));
    expect(table.get(old)).toBeUndefined();
    expect(table.get(fresh)).toBeDefined();
  });

  it('hands out refs unique across tables (pages and sessions never share a ref)', () => {
    const a = new RefTable();
    const b = new RefTable();
    const refsA = [1, 2, 3].map((n) => a.assign(where(n)));
    const refsB = [1, 2, 3].map((n) => b.assign(where(n)));
    for (const ref of refsB) {
      expect(refsA).not.toContain(ref);
      expect(a.get(ref)).toBeUndefined();
    }
  });

  it('is bounded', () => {
    const table = new RefTable(10);
    const first = table.assign(where(1));
    for (let n = 2; n <= 20; n++) table.assign(where(n));
    expect(table.size).toBe(10);
    expect(table.get(first)).toBeUndefined();
  });
});

describe('normalizeRef', () => {
  it('accepts @e12 and e12 only', () => {
    expect(normalizeRef('@e12')).toBe('e12');
    expect(normalizeRef('e12')).toBe('e12');
    expect(normalizeRef('@x12')).toBeUndefined();
    expect(normalizeRef('@e')).toBeUndefined();
  });
});
