import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanText } from './node-info.js';

describe('cleanText', () => {
  it('collapses whitespace', () => {
    expect(cleanText('  a \n\t b  ', 10)).toBe('a b');
  });

  it('gives what collapsing every run of white space gives, for any text (the clean fast path)', () => {
    const spaces = [' ', '  ', '\t', '\n', '\u00a0', '\u2003', '\r\n', 'a', 'é', 'b c'];
    const text = fc.array(fc.oneof(fc.constantFrom(...spaces), fc.string({ maxLength: 4 })), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(text, (parts) => {
        const raw = parts.join('');
        expect(cleanText(raw, 1000)).toBe(raw.replace(/\s+/g, ' ').trim());
      }),
      { numRuns: 2000 },
    );
  });

  it('caps long text between graphemes and counts the cut', () => {
    let cuts = 0;
    const out = cleanText('👩🏽‍🚀'.repeat(10), 10, () => cuts++);
    expect(out).toBe('👩🏽‍🚀👩🏽‍🚀…');
    expect(cuts).toBe(1);
  });
});
