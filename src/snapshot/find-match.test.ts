import { describe, expect, it } from 'vitest';
import { findNodes, matchBlock, resolveQuery, toFindQuery, type FindInput } from './find-match.js';
import type { RenderOptions, SnapNode } from './types.js';

const node = (role: string, name: string, children: SnapNode[] = [], ref?: string): SnapNode => ({
  role,
  name,
  states: [],
  interactive: ref !== undefined,
  children,
  ...(ref !== undefined ? { ref } : {}),
});

const OPTIONS: RenderOptions = {
  interactiveOnly: false,
  maxDepth: null,
  maxChildren: null,
  includeBoundingBoxes: false,
  includeUrls: false,
  pageUrl: 'http://127.0.0.1/',
};

const tree = node('document', 'Shop', [
  node('navigation', '', [node('link', 'Cart', [], 'e1')]),
  node('main', '', [
    node('heading', 'Desk lamp', [], 'e2'),
    node('text', '$49'),
    node('button', 'Add to cart', [node('text', 'Add to cart')], 'e3'),
    node('button', 'Save', [], 'e4'),
  ]),
]);

describe('find matching', () => {
  it('needs exactly one of text, regex, role; name only with role', () => {
    expect(() => toFindQuery({})).toThrow(/exactly one/);
    expect(() => toFindQuery({ text: 'a', regex: 'b' })).toThrow(/exactly one/);
    expect(() => toFindQuery({ text: 'a', name: 'b' })).toThrow(/only used with role/);
    expect(() => toFindQuery({ regex: '(' })).toThrow(/not a valid/);
    expect(() => toFindQuery({ role: 'a b' })).toThrow(/ARIA role/);
    expect(toFindQuery({ regex: '/cart/gi' })).toEqual({
      kind: 'regex',
      regex: { source: 'cart', flags: 'i' },
    });
  });

  it('finds a node once (not again as its own text) with its landmark, heading and neighbours', async () => {
    const { found, total } = await find({ text: 'add to CART' });
    expect(total).toBe(1);
    expect(matchBlock(found[0]!, 1, OPTIONS)).toEqual([
      '1. [button @e3] Add to cart',
      '   in: main › under heading "Desk lamp"',
      '   after $49 · before [button @e4] Save',
    ]);
  });

  it('matches a role with a name substring, and a regex (run on a worker thread)', async () => {
    expect((await find({ role: 'button' })).total).toBe(2);
    expect((await find({ role: 'button', name: 'sav' })).found[0]?.node.ref).toBe('e4');
    const byRegex = await find({ regex: '^Ca' });
    expect(byRegex.found.map((f) => f.path)).toEqual([['navigation']]);
  });
});

async function find(input: FindInput): Promise<ReturnType<typeof findNodes>> {
  return findNodes(tree, await resolveQuery(tree, toFindQuery(input), { timeoutMs: 60_000 }));
}
