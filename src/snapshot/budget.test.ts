import { describe, expect, it } from 'vitest';
import { cutAtGrapheme, measureLines, takePage, type Position } from './budget.js';

const FAMILY = '👨‍👩‍👧‍👦';

/** Reads every page and stitches them back: a page that starts mid-line continues the previous one. */
function readAll(lines: string[], maxChars: number, maxBytes: number): { pages: string[]; text: string } {
  const pages: string[] = [];
  let text = '';
  let from: Position | null = { line: 0, col: 0 };
  while (from) {
    const page = takePage(lines, from, maxChars, maxBytes);
    expect(page.chars).toBeLessThanOrEqual(maxChars);
    expect(Buffer.byteLength(page.text, 'utf8')).toBe(page.bytes);
    expect(page.bytes).toBeLessThanOrEqual(maxBytes);
    text += (pages.length === 0 ? '' : from.col > 0 ? '' : '\n') + page.text;
    pages.push(page.text);
    if (page.next) expect(page.next.line > from.line || page.next.col > from.col).toBe(true);
    from = page.next;
  }
  return { pages, text };
}

describe('takePage', () => {
  it('takes whole lines while they fit and continues exactly after them', () => {
    const lines = ['[document] T', '  [button @e1] One', '  [button @e2] Two', '  text'];
    const first = takePage(lines, { line: 0, col: 0 }, 32, 1000);
    expect(first.text).toBe('[document] T\n  [button @e1] One');
    expect(first.reason).toBe('maxChars');
    expect(first.next).toEqual({ line: 2, col: 0 });
    expect(readAll(lines, 32, 1000).text).toBe(lines.join('\n'));
  });

  it('reports the whole rendering size', () => {
    expect(measureLines(['ab', 'é'])).toEqual({ chars: 4, bytes: 5 });
  });

  it('never splits a UTF-8 sequence or a grapheme, under char and byte budgets', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `${i} 家族 ${FAMILY} naïve 😀 テキスト`);
    for (const [maxChars, maxBytes] of [
      [100, 100_000],
      [1000, 60],
      [35, 45],
    ] as const) {
      const { pages, text } = readAll(lines, maxChars, maxBytes);
      expect(text).toBe(lines.join('\n'));
      for (const page of pages) {
        expect(Buffer.from(page, 'utf8').toString('utf8')).toBe(page);
        expect(page).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
        expect(page.includes('\u200D') ? page.includes(FAMILY) : true).toBe(true);
      }
    }
  });

  it('cuts a line longer than the whole budget at a grapheme boundary and resumes mid-line', () => {
    const long = FAMILY.repeat(30);
    const { pages, text } = readAll([long], 100, 80);
    expect(text).toBe(long);
    for (const page of pages) expect(page.replaceAll(FAMILY, '')).toBe('');
  });

  it('always moves forward, even when one grapheme is bigger than the budget', () => {
    const cut = cutAtGrapheme(FAMILY, 2, 1000);
    expect(cut.chars).toBe(2);
    expect(Buffer.byteLength(cut.text)).toBe(cut.bytes);
  });
});
