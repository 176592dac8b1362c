import { describe, expect, it } from 'vitest';
import { describeSelector, toTargetSpec } from './selector-target.js';
import type { ElementSelector } from './facade-calls.js';

const css = (selector: string): ElementSelector => ({ base: { kind: 'css', selector }, steps: [] });

describe('toTargetSpec', () => {
  it('turns a bare ref into a snapshot ref target', () => {
    expect(toTargetSpec({ base: { kind: 'ref', ref: '@e5' }, steps: [] })).toEqual({ ref: '@e5' });
  });

  it('refuses refining a ref', () => {
    const refined: ElementSelector = {
      base: { kind: 'ref', ref: '@e5' },
      steps: [{ kind: 'nth', index: 0 }],
    };
    expect(() => toTargetSpec(refined)).toThrow(expect.objectContaining({ code: 'NOT_SUPPORTED' }));
  });

  it('builds a locator target for everything else, described by the script’s own selector', () => {
    const chain: ElementSelector = {
      base: { kind: 'role', role: 'article' },
      steps: [
        { kind: 'filter', hasText: 'Card two' },
        { kind: 'within', base: { kind: 'role', role: 'button', name: 'Buy' } },
        { kind: 'nth', index: -1 },
      ],
    };
    const spec = toTargetSpec(chain);
    expect(spec.ref).toBeUndefined();
    expect(spec.built?.description).toBe(
      'getByRole(article).filter(hasText "Card two").getByRole(button name="Buy").last()',
    );
  });

  it('keeps css selectors to css, text, xpath and id engines, without >> chaining', () => {
    expect(toTargetSpec(css('button:has-text("Go")')).built).toBeDefined();
    expect(toTargetSpec(css('text=Go')).built).toBeDefined();
    expect(toTargetSpec(css('input[name=q]')).built).toBeDefined();
    for (const bad of ['internal:role=button', 'aria-ref=e5', 'div >> text=Go', '_react=App']) {
      expect(() => toTargetSpec(css(bad)), bad).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });

  it('refuses roles Playwright does not know', () => {
    const bogus: ElementSelector = { base: { kind: 'role', role: 'buton' }, steps: [] };
    expect(() => toTargetSpec(bogus)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('bounds descriptions', () => {
    expect(describeSelector(css('x'.repeat(500))).length).toBeLessThanOrEqual(160);
  });
});
