import { describe, expect, it } from 'vitest';
import { MAX_ACTION_TEXT_CHARS } from './action-text.js';
import { renderTree } from './render.js';
import type { RenderOptions, SnapNode } from './types.js';

const ACTION: RenderOptions = {
  interactiveOnly: true,
  textLines: true,
  maxDepth: null,
  maxChildren: null,
  includeBoundingBoxes: false,
  includeUrls: false,
  pageUrl: 'http://test.local/',
};

function node(
  role: string,
  name: string,
  children: SnapNode[] = [],
  extra: Partial<SnapNode> = {},
): SnapNode {
  return { role, name, states: [], interactive: ['link', 'button'].includes(role), children, ...extra };
}

const chrome = [
  node('banner', '', [node('text', 'Signed-in banner text'), node('link', 'Home', [], { ref: 'e1' })]),
];
const footer = node('contentinfo', '', [node('text', 'A test fixture.')]);

describe('the after-action view (interactiveOnly + textLines)', () => {
  it('keeps the heading and a short paragraph of the main content, not the chrome text', () => {
    const page = node('document', 'Account – Shop', [
      ...chrome,
      node('main', '', [
        node('heading', 'Your account', [], { ref: 'e2', states: ['level=1'] }),
        node('text', 'Signed in as Ada'),
        node('button', 'Sign out', [], { ref: 'e3' }),
      ]),
      footer,
    ]);
    expect(renderTree(page, ACTION).lines).toEqual([
      '[document] Account – Shop',
      '  [banner]',
      '    [link @e1] Home',
      '  [main]',
      '    [heading level=1] Your account',
      '    Signed in as Ada',
      '    [button @e3] Sign out',
    ]);
    // Without textLines the interactive view is as before: controls only.
    expect(renderTree(page, { ...ACTION, textLines: false }).lines.join('\n')).not.toContain('Ada');
  });

  it('puts messages first, then headings, then paragraphs, within the line cap', () => {
    const page = node('document', 'Sign in – Shop', [
      node('main', '', [
        node('heading', 'Sign in', [], { states: ['level=1'] }),
        node('heading', 'Members', [], { states: ['level=2'] }),
        node('text', 'First paragraph'),
        node('text', 'Second paragraph'),
        node('alert', 'Invalid username or password.'),
        node('button', 'Sign in', [], { ref: 'e4' }),
      ]),
    ]);
    const lines = renderTree(page, ACTION).lines.map((l) => l.trim());
    // The h1 repeats the title: left out. The alert and the next heading fill the two lines.
    expect(lines).toEqual([
      '[document] Sign in – Shop',
      '[main]',
      '[heading level=2] Members',
      '[alert] Invalid username or password.',
      '[button @e4] Sign in',
    ]);
  });

  it('leaves out long text, text inside items, and headings that hold a control', () => {
    const page = node('document', 'Shop', [
      node('main', '', [
        node('text', 'x'.repeat(MAX_ACTION_TEXT_CHARS + 1)),
        node('heading', 'Card', [node('link', 'Card', [], { ref: 'e5' })], { states: ['level=3'] }),
        node('list', '', [
          node('listitem', '', [node('link', 'Bottle', [], { ref: 'e6' }), node('text', '$15.00')]),
          node('listitem', '', [node('link', 'Flask', [], { ref: 'e7' }), node('text', '$29.00')]),
        ]),
      ]),
    ]);
    expect(renderTree(page, ACTION).lines).toEqual([
      '[document] Shop',
      '  [main]',
      '    [link] @e5 Card @e6 Bottle @e7 Flask',
    ]);
  });

  it('never glues kept text to a control that was not its neighbour', () => {
    const page = node('document', 'Shop', [
      node('main', '', [
        node('generic', '', [node('link', 'Bottle', [], { ref: 'e8', inline: true })]),
        node('text', 'In stock', [], { glue: true }),
      ]),
    ]);
    expect(renderTree(page, ACTION).lines).toEqual([
      '[document] Shop',
      '  [main]',
      '    [link @e8] Bottle',
      '    In stock',
    ]);
  });
});
