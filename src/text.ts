/** Pure text helpers shared by every layer: bounds that count code points and UTF-8 bytes. */

const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

export interface BoundedText {
  text: string;
  truncated: boolean;
  /** Which bound cut the text, if any. */
  reason: 'maxChars' | 'maxBytes' | null;
  chars: number;
  bytes: number;
}

/**
 * Cuts `text` to at most `maxChars` code points and `maxBytes` UTF-8 bytes, never splitting a
 * code point (so never a broken surrogate pair or UTF-8 sequence).
 */
export function boundText(text: string, maxChars: number, maxBytes: number): BoundedText {
  let chars = 0;
  let bytes = 0;
  let end = 0;
  let reason: BoundedText['reason'] = null;
  for (const ch of text) {
    const size = codePointBytes(ch.codePointAt(0) ?? 0);
    if (chars + 1 > maxChars) {
      reason = 'maxChars';
      break;
    }
    if (bytes + size > maxBytes) {
      reason = 'maxBytes';
      break;
    }
    chars += 1;
    bytes += size;
    end += ch.length;
  }
  return { text: text.slice(0, end), truncated: reason !== null, reason, chars, bytes };
}

export function codePointBytes(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/** Code point count (what users call characters). */
export function countChars(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Replaces URLs and absolute file paths (`/home/…`, `C:\\…`) in a message with placeholders, so an
 * error message can be shown without telling where files live or which addresses a page used.
 */
export function stripLocations(text: string): string {
  return text
    .replace(/\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s'"`)]+/gi, '<url>')
    .replace(/(^|[\s'"`(=])(?:[A-Za-z]:\\|\/)(?:[\w.-]+[\\/])+[\w.-]*/g, '$1<path>');
}

/**
 * Characters that change how text is displayed without being visible: bidi embeddings, overrides
 * and isolates, directional marks, zero-width spaces and joiners, the word joiner and the BOM. A
 * label containing one can pose as another ("buyer" that renders as "reyub", a name with a hidden
 * suffix), so labels refuse them and page-supplied text has them removed.
 */
export const DISPLAY_SPOOFING = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const DISPLAY_SPOOFING_ALL = new RegExp(DISPLAY_SPOOFING.source, 'g');
// eslint-disable-next-line no-control-regex -- control characters (NUL included) are what is removed
const CONTROLS_ALL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Page-supplied one-line text (a title) made safe to show an agent: controls (NUL included) and
 * display-spoofing characters removed, whitespace collapsed, cut to `maxChars` code points with "…".
 */
export function toDisplayLine(text: string, maxChars: number): string {
  const clean = text.replace(CONTROLS_ALL, '').replace(DISPLAY_SPOOFING_ALL, '').replace(/\s+/g, ' ').trim();
  const chars = Array.from(clean);
  return chars.length <= maxChars ? clean : `${chars.slice(0, maxChars - 1).join('')}…`;
}

/** Code points of a page title returned to an agent. */
export const TITLE_MAX_CHARS = 200;

/** A page's or an element's rendered text, bounded, with what it was before (complete evidence or a prefix). */
export interface VisibleTextResult {
  text: string;
  chars: number;
  bytes: number;
  originalChars: number;
  originalBytes: number;
  truncated: boolean;
  truncationReason: 'maxChars' | 'maxBytes' | null;
}

export function boundVisibleText(
  text: string,
  limits: { maxChars: number; maxBytes: number },
): VisibleTextResult {
  const bounded = boundText(text, limits.maxChars, limits.maxBytes);
  return {
    text: bounded.text,
    chars: bounded.chars,
    bytes: bounded.bytes,
    originalChars: bounded.truncated ? countChars(text) : bounded.chars,
    originalBytes: bounded.truncated ? utf8Bytes(text) : bounded.bytes,
    truncated: bounded.truncated,
    truncationReason: bounded.reason,
  };
}
