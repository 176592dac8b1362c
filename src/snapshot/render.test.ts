import { describe, expect, it } from 'vitest';
import { capRefs, MAX_RUN_ITEMS, renderTree } from './render.js';
import type { RenderOptions, SnapNode } from './types.js';

const OPTIONS: RenderOptions = {
  interactiveOnly: false,
  maxDepth: null,
  maxChildren: null,
  includeBoundingBoxes: false,
  includeUrls: false,
  pageUrl: 'http://test.local/docs',
};

function node(
  role: string,
  name: string,
  children: SnapNode[] = [],
  extra: Partial<SnapNode> = {},
): SnapNode {
  return {
    role,
    name,
    states: [],
    interactive: ['link', 'button', 'textbox'].includes(role),
    children,
    ...extra,
  };
}

const page = node('document', 'T', [
  node('banner', '', [
    node('link', 'Home', [], { ref: 'e1', url: 'http://test.local/', box: [0, 0, 40, 20] }),
  ]),
  node('main', '', [
    node('heading', 'Title', [], { ref: 'e2', states: ['level=1'] }),
    node('text', 'Intro text'),
    node('list', '', [
      node('listitem', 'One', [node('list', '', [node('text', 'Deep')])]),
      node('text', 'Two'),
      node('text', 'Three'),
    ]),
    node('textbox', 'Email', [], { ref: 'e3', states: ['required'], value: 'a@b.c' }),
  ]),
]);

describe('renderTree', () => {
  it('writes indented lines with role, ref, state, value and name', () => {
    expect(renderTree(page, OPTIONS).lines).toEqual([
      '[document] T',
      '  [banner]',
      '    [link @e1] Home',
      '  [main]',
      '    [heading @e2 level=1] Title',
      '    Intro text',
      '    [list]',
      '      [listitem] One',
      '        [list]',
      '          Deep',
      '      Two',
      '      Three',
      '    [textbox @e3 required value="a@b.c"] Email',
    ]);
  });

  it('adds urls (same-origin as paths) and boxes only when asked', () => {
    const lines = renderTree(page, { ...OPTIONS, includeUrls: true, includeBoundingBoxes: true }).lines;
    expect(lines).toContain('    [link @e1 url=/ box=0,0,40,20] Home');
  });

  it('cuts at maxDepth and counts what it left out', () => {
    const out = renderTree(page, { ...OPTIONS, maxDepth: 2 });
    expect(out.lines).toContain('    [list]');
    expect(out.lines).not.toContain('      Two');
    expect(out.maxDepthCut).toBe(5);
  });

  it('shows maxChildren children and counts the rest', () => {
    const out = renderTree(page, { ...OPTIONS, maxChildren: 1 });
    expect(out.lines).toEqual(['[document] T', '  [banner]', '    [link @e1] Home', '  … 1 more']);
    expect(out.maxChildrenCut).toBe(10);
  });

  it('keeps only interactive elements, inside their landmarks', () => {
    expect(renderTree(page, { ...OPTIONS, interactiveOnly: true }).lines).toEqual([
      '[document] T',
      '  [banner]',
      '    [link @e1] Home',
      '  [main]',
      '    [textbox @e3 required value="a@b.c"] Email',
    ]);
  });

  it(`puts runs of stateless siblings of one role on a line, at most ${MAX_RUN_ITEMS} per line`, () => {
    const links = Array.from({ length: MAX_RUN_ITEMS + 2 }, (_, i) =>
      node('link', `L${i}`, [], { ref: `e${i + 10}` }),
    );
    const lines = renderTree(
      node('document', 'T', [...links, node('link', 'Current', [], { ref: 'e99', states: ['focused'] })]),
      OPTIONS,
    ).lines;
    expect(lines[1]).toBe(
      `  [link] ${links
        .slice(0, MAX_RUN_ITEMS)
        .map((l) => `@${l.ref} ${l.name}`)
        .join(' ')}`,
    );
    expect(lines[2]).toBe(
      `  [link] @e${MAX_RUN_ITEMS + 10} L${MAX_RUN_ITEMS} @e${MAX_RUN_ITEMS + 11} L${MAX_RUN_ITEMS + 1}`,
    );
    expect(lines[3]).toBe('  [link @e99 focused] Current');
  });

  it('stops at the retention cap and says the rendering is incomplete', () => {
    const many = node(
      'document',
      'T',
      Array.from({ length: 100 }, (_, i) => node('text', `line ${i}`)),
    );
    const out = renderTree(many, OPTIONS, 50);
    expect(out.complete).toBe(false);
    expect(out.lines.join('\n').length).toBeLessThanOrEqual(50);
  });
});

describe('capRefs (seed 003 maxRefs)', () => {
  const leaf = (role: string, ref: string, interactive: boolean): SnapNode => ({
    role,
    name: ref,
    ref,
    states: [],
    interactive,
    children: [],
  });
  it('keeps interactive refs first, in reading order, and counts the rest', () => {
    const root: SnapNode = {
      role: 'document',
      name: 'x',
      states: [],
      interactive: false,
      children: [leaf('heading', 'e1', false), leaf('link', 'e2', true), leaf('button', 'e3', true)],
    };
    const { top, cut } = capRefs(root, 2);
    expect(cut).toBe(1);
    expect(top.children.map((c) => c.ref)).toEqual([undefined, 'e2', 'e3']);
    expect(root.children[0]?.ref).toBe('e1');
  });
});
