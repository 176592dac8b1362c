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
