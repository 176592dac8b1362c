import { describe, expect, it } from 'vitest';
import { inPageQueryOf, inPageQueryOfSelector, queryKey, verdictsFrom } from './in-page-locate.js';
import { checkLocator } from './locator-spec.js';

/** Which locators go to the in-page resolver; the accuracy guard (locate-in-page.test.ts) checks its answers. */

const selector = (base: Record<string, unknown>, steps: unknown[] = []) => ({ base, steps });

describe('in-page queries of code-mode selectors', () => {
  it("takes getByRole's level on heading and listitem, and leaves it to Playwright elsewhere", () => {
    expect(inPageQueryOfSelector(selector({ kind: 'role', role: 'heading', level: 1 }))).toEqual({
      kind: 'role',
      value: 'heading',
      exact: false,
      name: undefined,
      level: 1,
    });
    expect(inPageQueryOfSelector(selector({ kind: 'role', role: 'listitem', level: 2 }))?.level).toBe(2);
    expect(inPageQueryOfSelector(selector({ kind: 'role', role: 'button', level: 1 }))).toBeUndefined();
    expect(inPageQueryOfSelector(selector({ kind: 'role', role: 'heading', checked: true }))).toBeUndefined();
  });

  it('takes plain CSS, and leaves engines, chains, text and XPath shorthands to Playwright', () => {
    expect(inPageQueryOfSelector(selector({ kind: 'css', selector: '#order-number' }))).toEqual({
      kind: 'css',
      value: '#order-number',
      exact: true,
    });
    expect(inPageQueryOfSelector(selector({ kind: 'css', selector: 'a[href="x=1"]' }))?.kind).toBe('css');
    for (const s of [
      'text=Hi',
      'xpath=//a',
      'id=order',
      'data-testid=x',
      'div >> span',
      '"Hi"',
      "'Hi'",
      '//a',
      '..',
      ' ',
    ])
      expect(inPageQueryOfSelector(selector({ kind: 'css', selector: s })), s).toBeUndefined();
  });

  it('leaves refined chains (nth, filter, within) to Playwright', () => {
    expect(
      inPageQueryOfSelector(selector({ kind: 'css', selector: 'li' }, [{ kind: 'nth', index: 0 }])),
    ).toBeUndefined();
  });
});

describe('in-page queries of tools locators', () => {
  it('takes plain CSS and the common kinds on the main frame only', () => {
    expect(inPageQueryOf(checkLocator({ css: '#order-number' }, 'locator'))).toEqual({
      kind: 'css',
      value: '#order-number',
      exact: true,
    });
    expect(inPageQueryOf(checkLocator({ css: 'text=Hi' }, 'locator'))).toBeUndefined();
    expect(
      inPageQueryOf(
        checkLocator({ css: '#x', frame: { kind: 'iframe', chain: [{ css: 'iframe' }] } }, 'locator'),
      ),
    ).toBeUndefined();
  });
});

describe("the page's keyed verdicts (the action log's one-round choice)", () => {
  const role = { kind: 'role', value: 'button', exact: false, name: { text: 'Go' } } as const;
  const css = { kind: 'css', value: '#go', exact: true } as const;

  it('reads each verdict by its key: 1 unique, 0 not, -1 unsure', () => {
    const pairs: [string, number][] = [
      [queryKey(role), 1],
      [queryKey(css), -1],
    ];
    expect(verdictsFrom([role, css, undefined], pairs)).toEqual([true, undefined, undefined]);
    expect(verdictsFrom([css, role], [[queryKey(css), 0], ...pairs.slice(0, 1)])).toEqual([false, true]);
  });

  it('is undefined when the page did not answer a candidate (Chromium names the element otherwise)', () => {
    const other = { ...role, name: { text: 'Go now' } };
    expect(
      verdictsFrom(
        [other, css],
        [
          [queryKey(role), 1],
          [queryKey(css), 1],
        ],
      ),
    ).toBeUndefined();
  });

  it('needs no key for roles the page does not answer, and tells exact and name apart', () => {
    const tree = { kind: 'role', value: 'tree', exact: false } as const;
    expect(verdictsFrom([tree], [])).toEqual([undefined]);
    expect(queryKey({ ...role, exact: true })).not.toBe(queryKey(role));
    expect(queryKey({ kind: 'role', value: 'button', exact: false })).not.toBe(
      queryKey({ kind: 'role', value: 'button', exact: false, name: { text: '' } }),
    );
  });
});
