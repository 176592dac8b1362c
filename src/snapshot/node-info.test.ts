import { describe, expect, it } from 'vitest';
import { cleanText } from './node-info.js';

describe('cleanText', () => {
  it('collapses whitespace', () => {
    expect(cleanText('  a \n\t b  ', 10)).toBe('a b');
  });

  it('caps long text between graphemes and counts the cut', () => {
    let cuts = 0;
    const out = cleanText('👩🏽‍🚀'.repeat(10), 10, () => cuts++);
    expect(out).toBe('👩🏽‍🚀👩🏽‍🚀…');
    expect(cuts).toBe(1);
  });
});
