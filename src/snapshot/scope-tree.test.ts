import { describe, expect, it } from 'vitest';
import { mergeScopeNodes } from './scope-tree.js';
import type { AXNodeLike } from './types.js';

const node = (nodeId: string, childIds: string[], parentId?: string): AXNodeLike => ({
  nodeId,
  ignored: false,
  childIds,
  ...(parentId === undefined ? {} : { parentId }),
});

describe('mergeScopeNodes', () => {
  // Root 1 > 2 (scope) > 3 > 4; the path also names 2's sibling 5, which is not fetched.
  const path = [node('2', ['3'], '1'), node('3', ['4'], '2'), node('1', ['2', '5'])];

  it('puts the path first, each node once, the subtree winning', () => {
    const subtree = [node('2', ['3'], '1'), node('3', ['4'], '2'), node('4', [], '3')];
    const merged = mergeScopeNodes(path, subtree);
    expect(merged?.map((n) => n.nodeId)).toEqual(['1', '2', '3', '4']);
    expect(merged?.find((n) => n.parentId === undefined)?.nodeId).toBe('1');
  });

  it('refuses a subtree that names a child it does not hold (the caller fetches the full tree)', () => {
    expect(mergeScopeNodes(path, [node('2', ['3'], '1'), node('3', ['4'], '2')])).toBeUndefined();
    expect(mergeScopeNodes(path, [])).toBeUndefined();
  });
});
