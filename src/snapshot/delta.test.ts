import { describe, expect, it } from 'vitest';
import { diffLines, diffSnapshots } from './delta.js';

describe('diffSnapshots', () => {
  const before = [
    '[document] T',
    '  [main]',
    '    [button @e1] Original name',
    '    Item A',
    '    Item B',
    '    [link @e2] Home',
  ];

  it('reports no change', () => {
    expect(diffSnapshots(before, before)).toEqual({
      lines: ['[delta] no changes since the previous snapshot'],
      added: 0,
      removed: 0,
      changed: 0,
    });
  });

  it('shows added and removed lines, and a changed element once (same ref) as ~', () => {
    const after = [
      '[document] T',
      '  [main]',
      '    [button @e1] Renamed',
      '    Item A',
      '    New item',
      '    [link @e2] Home',
      '    [status] Saved',
    ];
    const delta = diffSnapshots(before, after);
    expect(delta.lines).toEqual([
      '[delta] +2 -1 ~1 since the previous snapshot',
      '~     [button @e1] Renamed',
      '-     Item B',
      '+     New item',
      '+     [status] Saved',
    ]);
    expect(delta).toMatchObject({ added: 2, removed: 1, changed: 1 });
  });

  it('keeps the order of a plain line diff', () => {
    const ops = diffLines(['a', 'b', 'c'], ['a', 'x', 'c', 'd']);
    expect(ops.map((o) => `${o.kind}${o.line}`)).toEqual(['=a', '-b', '+x', '=c', '+d']);
  });

  it('falls back to an order-blind diff for huge changes without losing lines', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `old ${i}`);
    const b = Array.from({ length: 3000 }, (_, i) => `new ${i}`);
    const delta = diffSnapshots(a, b);
    expect(delta.added).toBe(3000);
    expect(delta.removed).toBe(3000);
  });
});
