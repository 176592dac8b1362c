/**
 * Whether a file's bytes hold a secret in any form a reader could recover it from: the bytes as
 * they are (read as Latin-1, UTF-8 and UTF-16), and what gzip and zip containers hold once
 * decompressed (nested ones too, a few levels deep), each view searched for every form of each value
 * (src/redaction/secret-forms.ts: JSON, HTML, percent and base64 included). The whole file is
 * searched, so no slice a reader asks for can reveal a secret cut across two reads. Decompression is
 * bounded; a container that cannot be opened within the bounds counts as holding a secret. A file of
 * hundreds of megabytes takes seconds to search: it is searched a chunk at a time, the event loop
 * free between chunks, and gzip is inflated on libuv's pool.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { readZipEntries } from '../engine/files/zip-entries.js';
import { secretForms } from './secret-forms.js';

/** Decompressed bytes looked at in all, per file. */
const MAX_EXPANDED_BYTES = 256 * 1024 * 1024;
const MAX_DEPTH = 3;
const MIN_VALUE_CHARS = 4;
/** Bytes decoded and searched between two turns of the event loop. */
const CHUNK_BYTES = 1024 * 1024;
const gunzipAsync = promisify(gunzip);

export async function holdsSecret(bytes: Buffer, values: readonly string[]): Promise<boolean> {
  // Shorter values match arbitrary bytes by chance; they are left to the text redaction.
  const forms = [
    ...new Set(values.filter((v) => v.length >= MIN_VALUE_CHARS).flatMap((v) => secretForms(v))),
  ];
  if (forms.length === 0) return false;
  const budget = { left: MAX_EXPANDED_BYTES };
  return searchView(bytes, forms, 0, budget);
}

async function searchView(
  bytes: Buffer,
  forms: readonly string[],
  depth: number,
  budget: { left: number },
): Promise<boolean> {
  if (await viewsHold(bytes, forms)) return true;
  if (depth >= MAX_DEPTH) return false;
  let inner: Buffer[];
  try {
    inner = await unpack(bytes, budget);
  } catch {
    return true;
  }
  for (const part of inner) if (await searchView(part, forms, depth + 1, budget)) return true;
  return false;
}

/**
 * The bytes read as Latin-1, UTF-8 and UTF-16 hold a form. Chunks start at even offsets (UTF-16 keeps
 * its alignment) and overlap by more than any form's bytes, so a form cut by one chunk's end is whole
 * in the next chunk's start; a UTF-8 character cut at a chunk's start lies in the overlap too.
 */
async function viewsHold(bytes: Buffer, forms: readonly string[]): Promise<boolean> {
  const overlap = 4 * Math.max(...forms.map((form) => form.length)) + 4;
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) {
    const chunk = bytes.subarray(start, Math.min(bytes.length, start + CHUNK_BYTES + overlap));
    const views = [chunk.toString('latin1'), chunk.toString('utf8'), chunk.toString('utf16le')];
    if (views.some((text) => forms.some((form) => text.includes(form)))) return true;
    if (start + CHUNK_BYTES < bytes.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

/** What a gzip or zip container holds; nothing for anything else. Throws past the budget. */
async function unpack(bytes: Buffer, budget: { left: number }): Promise<Buffer[]> {
  if (bytes.length < 4 || budget.left <= 0) return [];
  let parts: Buffer[] = [];
  const magic = bytes.readUInt32LE(0);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b)
    parts = [await gunzipAsync(bytes, { maxOutputLength: budget.left })];
  else if (magic === 0x04034b50 || magic === 0x06054b50)
    parts = readZipEntries(bytes, budget.left).map((entry) => entry.data);
  for (const part of parts) budget.left -= part.length;
  if (budget.left < 0) throw new Error('too large to search');
  return parts;
}
