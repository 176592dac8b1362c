/**
 * Whether a file's bytes hold a secret in any form a reader could recover it from: the bytes as
 * they are (read as Latin-1, UTF-8 and UTF-16), and what gzip and zip containers hold once
 * decompressed (nested ones too, a few levels deep), each view searched for every form of each value
 * (src/redaction/secret-forms.ts: JSON, HTML, percent and base64 included). The whole file is
 * searched, so no slice a reader asks for can reveal a secret cut across two reads. Decompression is
 * bounded; a container that cannot be opened within the bounds counts as holding a secret.
 */
import { gunzipSync } from 'node:zlib';
import { readZipEntries } from '../engine/files/zip-entries.js';
import { secretForms } from './secret-forms.js';

/** Decompressed bytes looked at in all, per file. */
const MAX_EXPANDED_BYTES = 256 * 1024 * 1024;
const MAX_DEPTH = 3;
const MIN_VALUE_CHARS = 4;

export function holdsSecret(bytes: Buffer, values: readonly string[]): boolean {
  // Shorter values match arbitrary bytes by chance; they are left to the text redaction.
  const forms = [
    ...new Set(values.filter((v) => v.length >= MIN_VALUE_CHARS).flatMap((v) => secretForms(v))),
  ];
  if (forms.length === 0) return false;
  const budget = { left: MAX_EXPANDED_BYTES };
  return searchView(bytes, forms, 0, budget);
}

function searchView(
  bytes: Buffer,
  forms: readonly string[],
  depth: number,
  budget: { left: number },
): boolean {
  const views = [bytes.toString('latin1'), bytes.toString('utf8'), bytes.toString('utf16le')];
  if (views.some((text) => forms.some((form) => text.includes(form)))) return true;
  if (depth >= MAX_DEPTH) return false;
  let inner: Buffer[];
  try {
    inner = unpack(bytes, budget);
  } catch {
    return true;
  }
  return inner.some((part) => searchView(part, forms, depth + 1, budget));
}

/** What a gzip or zip container holds; nothing for anything else. Throws past the budget. */
function unpack(bytes: Buffer, budget: { left: number }): Buffer[] {
  if (bytes.length < 4 || budget.left <= 0) return [];
  let parts: Buffer[] = [];
  const magic = bytes.readUInt32LE(0);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) parts = [gunzipSync(bytes, { maxOutputLength: budget.left })];
  else if (magic === 0x04034b50 || magic === 0x06054b50)
    parts = readZipEntries(bytes, budget.left).map((entry) => entry.data);
  for (const part of parts) budget.left -= part.length;
  if (budget.left < 0) throw new Error('too large to search');
  return parts;
}
