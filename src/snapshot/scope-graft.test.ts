import { describe, expect, it } from 'vitest';
import { graftScope } from './scope-graft.js';
import type { AXNodeLike } from './types.js';

const node = (nodeId: string, backend: number, parentId?: string, childIds: string[] = []): AXNodeLike => ({
  nodeId,
  ignored: false,
  backendDOMNodeId: backend,
  childIds,
  ...(parentId === undefined ? {} : { parentId }),
});

describe('graftScope', () => {
  // body(1) > [heading(2), <custom>(3, absent) > shadow > [tablist(4) > tab(5), tabpanel(6)], footer(7)]
  const tree = [
    node('1', 1, undefined, ['2', '4', '6', '7']),
    node('2', 2, '1'),
    node('4', 4, '1', ['5']),
    node('5', 5, '4'),
    node('6', 6, '1'),
    node('7', 7, '1'),
  ];

  it('puts the missing scope element between its ancestor and its content, in place', () => {
    const out = graftScope(tree, 3, new Set([3, 30, 4, 5, 6]));
    const byId = new Map(out.map((n) => [n.nodeId, n]));
    expect(byId.get('1')?.childIds).toEqual(['2', 'scope-3', '7']);
    expect(byId.get('scope-3')).toMatchObject({ ignored: true, backendDOMNodeId: 3, parentId: '1' });
    expect(byId.get('scope-3')?.childIds).toEqual(['4', '6']);
    expect(byId.get('4')?.parentId).toBe('scope-3');
    expect(byId.get('5')?.parentId).toBe('4');
  });

  it('leaves the tree alone when nothing of the scope is in it', () => {
    expect(graftScope(tree, 3, new Set([3, 99]))).toBe(tree);
  });
});
