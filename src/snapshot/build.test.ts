import { describe, expect, it } from 'vitest';
import { ax, pageOf } from '../../test/helpers/snapshot-ax.js';
import { buildTree } from './build.js';
import { renderTree } from './render.js';
import type { PageCapture, RenderOptions } from './types.js';

const OPTIONS: RenderOptions = {
  interactiveOnly: false,
  maxDepth: null,
  maxChildren: null,
  includeBoundingBoxes: false,
  includeUrls: false,
  pageUrl: 'http://test.local/',
};

function snapshotOf(capture: PageCapture, options: Partial<RenderOptions> = {}): string {
  let n = 0;
  const { root } = buildTree(capture, () => `e${++n}`);
  return renderTree(root, { ...OPTIONS, ...options }).lines.join('\n');
}

const text = (t: string) => ax('StaticText', t);

describe('buildTree pruning', () => {
  it('drops ignored wrappers, empty generics and inline text boxes; hoists single children', () => {
    const page = pageOf(
      ax('RootWebArea', 'Shop', [
        ax(
          'none',
          '',
          [
            ax('generic', '', [
              ax('main', '', [ax('generic', '', [ax('button', 'Buy', [text('Buy')])]), ax('generic')]),
            ]),
          ],
          { ignored: 'uninteresting' },
        ),
      ]),
    );
    expect(snapshotOf(page)).toBe(['[document] Shop', '  [main]', '    [button @e1] Buy'].join('\n'));
  });

  it('joins text split by inline markup, keeps block text apart, and drops text repeating a name', () => {
    const page = pageOf(
      ax('RootWebArea', 'T', [
        ax(
          'heading',
          'Hello world',
          [text('Hello '), ax('emphasis', '', [text('world')], { backendId: 5 })],
          { props: { level: 2 } },
        ),
        ax(
          'paragraph',
          '',
          [text('One '), ax('strong', '', [text('two')], { backendId: 6 }), text(' three')],
          { backendId: 7 },
        ),
        ax('paragraph', '', [text('Next block')], { backendId: 8 }),
      ]),
      { 5: { inline: true }, 6: { inline: true } },
    );
    expect(snapshotOf(page)).toBe(
      ['[document] T', '  [heading @e1 level=2] Hello world', '  One two three', '  Next block'].join('\n'),
    );
  });

  it('drops a label that repeats its control name and keeps the control with its state', () => {
    const page = pageOf(
      ax('RootWebArea', 'T', [
        ax('group', 'Choices', [
          ax('Legend', '', [text('Choices')]),
          ax('generic', '', [
            ax('checkbox', 'Subscribe', [], { props: { checked: 'true' } }),
            ax('LabelText', '', [text('Subscribe')]),
          ]),
          ax('generic', '', [
            ax('LabelText', '', [text('Email')]),
            ax('textbox', 'Email', [ax('generic', '', [text('a@b.c')])], {
              value: 'a@b.c',
              props: { required: true },
            }),
          ]),
        ]),
      ]),
    );
    expect(snapshotOf(page)).toBe(
      [
        '[document] T',
        '  [group] Choices',
        '    [checkbox @e1 checked] Subscribe',
        '    [textbox @e2 required value="a@b.c"] Email',
      ].join('\n'),
    );
  });

  it('always redacts password values, by input type or masked value', () => {
    const page = pageOf(
      ax('RootWebArea', 'T', [
        ax('textbox', 'Password', [], { value: 'hunter2-secret', backendId: 11 }),
        ax('textbox', 'PIN', [], { value: '••••••' }),
        ax('textbox', 'Card', [], { value: '4111111111111111', backendId: 12 }),
      ]),
      { 11: { inputType: 'password' }, 12: { autocomplete: 'cc-number' } },
    );
    const out = snapshotOf(page);
    expect(out).not.toContain('hunter2');
    expect(out).not.toContain('4111');
    expect(out).toContain('[textbox @e1 value=••••] Password');
    expect(out).toContain('[textbox @e2 value=••••] PIN');
    expect(out).toContain('[textbox @e3 value=••••] Card');
  });

  it('skips aria-hidden subtrees and counts them', () => {
    const capture = pageOf(
      ax('RootWebArea', 'T', [
        ax('none', '', [ax('button', 'Hidden')], { ignored: 'ariaHiddenElement' }),
        ax('button', 'Shown'),
      ]),
    );
    const { root, ariaHidden } = buildTree(capture, () => 'e1');
    expect(ariaHidden).toBe(1);
    expect(renderTree(root, OPTIONS).lines).toEqual(['[document] T', '  [button @e1] Shown']);
  });

  it('gives refs to clickable divs (onclick, cursor:pointer, tabindex) but not to clickable containers of controls', () => {
    const page = pageOf(
      ax('RootWebArea', 'T', [
        ax('generic', '', [text('Open card')], { backendId: 21 }),
        ax('generic', '', [text('Focusable')], { backendId: 22 }),
        ax('generic', '', [ax('button', 'Inner')], { backendId: 23 }),
        ax('generic', '', [text('Plain')], { backendId: 24 }),
      ]),
      { 21: { clickable: true }, 22: { tabbable: true }, 23: { clickable: true } },
    );
    expect(snapshotOf(page)).toBe(
      ['[document] T', '  [clickable] @e1 Open card @e2 Focusable', '  [button @e3] Inner', '  Plain'].join(
        '\n',
      ),
    );
  });

  it('assigns refs in document order, only to nodes that survive pruning', () => {
    const page = pageOf(
      ax('RootWebArea', 'T', [
        ax('Date', 'When', [ax('spinbutton', 'Month'), ax('button', 'Show picker')], { value: '2024-05-17' }),
        ax('listbox', 'Pick', [ax('option', 'A', [], { props: { selected: true } }), ax('option', 'B')]),
      ]),
    );
    expect(snapshotOf(page)).toBe(
      [
        '[document] T',
        '  [date @e1 value="2024-05-17"] When',
        '  [listbox @e2] Pick',
        '    [option @e3 selected] A',
        '    [option @e4] B',
      ].join('\n'),
    );
  });

  it("lists a native select's options on one line without refs", () => {
    const page = pageOf(
      ax('RootWebArea', 'T', [
        ax(
          'combobox',
          'Vehicle',
          [
            ax('MenuListPopup', '', [
              ax('option', 'Bike'),
              ax('option', 'Car', [], { props: { selected: true } }),
            ]),
          ],
          {
            value: 'Car',
            props: { expanded: false },
          },
        ),
      ]),
    );
    expect(snapshotOf(page)).toBe(
      ['[document] T', '  [combobox @e1 value="Car"] Vehicle', '    [option] Bike · Car'].join('\n'),
    );
  });

  it('writes rows of simple cells on one line and keeps links in sentences', () => {
    const page = pageOf(
      ax('RootWebArea', 'T', [
        ax('table', 'Rota', [
          ax('caption', '', [text('Rota')]),
          ax('rowgroup', '', [
            ax('row', '', [
              ax('columnheader', 'Name', [text('Name')]),
              ax('columnheader', 'Day', [text('Day')]),
            ]),
          ]),
          ax('row', '', [
            ax('cell', 'Ann', [text('Ann')]),
            ax('cell', 'Mon', [ax('link', 'Mon', [text('Mon')])]),
          ]),
        ]),
        ax(
          'paragraph',
          '',
          [text('Read '), ax('link', 'the docs', [text('the docs')], { backendId: 31 }), text(' first.')],
          { backendId: 32 },
        ),
      ]),
      { 31: { inline: true } },
    );
    expect(snapshotOf(page)).toBe(
      [
        '[document] T',
        '  [table @e1] Rota',
        '    [row header] Name | Day',
        '    [row] Ann | [link @e2] Mon',
        '  Read [link @e3 "the docs"] first.',
      ].join('\n'),
    );
  });
});
