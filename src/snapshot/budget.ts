import { boundText, codePointBytes } from '../text.js';

/**
 * Pages through rendered lines under a character (code point) and UTF-8 byte budget. Whole lines are
 * taken while they fit; a page never ends inside a line unless that one line alone is larger than the
 * whole budget, and then it is cut at a grapheme boundary (never inside a UTF-8 sequence) and the next
 * page continues from exactly there.
 */

export interface Position {
  line: number;
  /** Code points already returned from this line. */
  col: number;
}

export interface PageSlice {
  text: string;
  chars: number;
  bytes: number;
  /** Where the next page starts, or null when this page reached the end. */
  next: Position | null;
  reason: 'maxChars' | 'maxBytes' | null;
}

export interface Measure {
  chars: number;
  bytes: number;
}

const NON_ASCII = /[^\u0000-\u007f]/; // eslint-disable-line no-control-regex -- ASCII range check

export function measure(text: string): Measure {
  if (!NON_ASCII.test(text)) return { chars: text.length, bytes: text.length };
  let chars = 0;
  let bytes = 0;
  for (const ch of text) {
    chars++;
    bytes += codePointBytes(ch.codePointAt(0) ?? 0);
  }
  return { chars, bytes };
}

/** Size of all lines joined with newlines. */
export function measureLines(lines: readonly string[]): Measure {
  let chars = Math.max(0, lines.length - 1);
  let bytes = chars;
  for (const line of lines) {
    const m = measure(line);
    chars += m.chars;
    bytes += m.bytes;
  }
  return { chars, bytes };
}

export function takePage(
  lines: readonly string[],
  from: Position,
  maxChars: number,
  maxBytes: number,
): PageSlice {
  const out: string[] = [];
  let chars = 0;
  let bytes = 0;
  for (let i = from.line; i < lines.length; i++) {
    const whole = lines[i] ?? '';
    const piece = i === from.line && from.col > 0 ? sliceCodePoints(whole, from.col) : whole;
    const sep = out.length > 0 ? 1 : 0;
    const m = measure(piece);
    const overChars = chars + sep + m.chars > maxChars;
    const overBytes = bytes + sep + m.bytes > maxBytes;
    if (!overChars && !overBytes) {
      out.push(piece);
      chars += sep + m.chars;
      bytes += sep + m.bytes;
      continue;
    }
    const reason = overChars ? 'maxChars' : 'maxBytes';
    if (out.length > 0)
      return {
        text: out.join('\n'),
        chars,
        bytes,
        next: { line: i, col: i === from.line ? from.col : 0 },
        reason,
      };
    const cut = cutAtGrapheme(piece, maxChars, maxBytes);
    const col = (i === from.line ? from.col : 0) + cut.chars;
    return { text: cut.text, chars: cut.chars, bytes: cut.bytes, next: { line: i, col }, reason };
  }
  return { text: out.join('\n'), chars, bytes, next: null, reason: null };
}

function sliceCodePoints(text: string, start: number): string {
  let seen = 0;
  let offset = 0;
  for (const ch of text) {
    if (seen === start) break;
    seen++;
    offset += ch.length;
  }
  return text.slice(offset);
}

/** Made on first use: building it loads ICU's break data (~10 ms), which a server start need not wait for. */
let segmenter: Intl.Segmenter | undefined;

/**
 * The longest prefix within both budgets that ends on a grapheme boundary (so an emoji sequence or a
 * letter with its accents stays whole); if even the first grapheme is too big, whole code points.
 * Always at least one code point, so paging always moves forward.
 */
export function cutAtGrapheme(
  text: string,
  maxChars: number,
  maxBytes: number,
): { text: string; chars: number; bytes: number } {
  let chars = 0;
  let bytes = 0;
  let end = 0;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(text)) {
    const m = measure(segment);
    if (chars + m.chars > maxChars || bytes + m.bytes > maxBytes) break;
    chars += m.chars;
    bytes += m.bytes;
    end += segment.length;
  }
  if (end > 0) return { text: text.slice(0, end), chars, bytes };
  const bounded = boundText(text, Math.max(1, maxChars), Math.max(4, maxBytes));
  return { text: bounded.text, chars: bounded.chars, bytes: bounded.bytes };
}
