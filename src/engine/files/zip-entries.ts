/**
 * Just enough zip for rewriting a Playwright trace in place: read every entry (stored or deflated)
 * and write them back deflated. No encryption, no zip64 (a trace over 4 GiB is refused).
 */
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Every entry of `zip`, in order. Throws on what this reader does not understand, and on an entry
 * that inflates past `maxEntryBytes`.
 */
export function readZipEntries(zip: Buffer, maxEntryBytes?: number): ZipEntry[] {
  const limit = maxEntryBytes === undefined ? {} : { maxOutputLength: Math.max(1, maxEntryBytes) };
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || zip.readUInt32LE(eocd) !== EOCD) throw new Error('not a zip');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error('bad central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (method !== 0 && method !== 8) throw new Error('unsupported zip compression');
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    entries.push({ name, data: method === 8 ? inflateRawSync(raw, limit) : Buffer.from(raw) });
    at += 46 + skip;
  }
  return entries;
}

/** A zip of `entries`, each deflated, UTF-8 names. */
export function writeZipEntries(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const body = deflateRawSync(data);
    const fields = { crc: crc32(data), compressed: body.length, size: data.length };
    const local = header(LOCAL, 30, nameBytes, fields);
    const central = header(CENTRAL, 46, nameBytes, fields);
    central.writeUInt32LE(offset, 42);
    locals.push(local, body);
    centrals.push(central);
    offset += local.length + body.length;
    if (offset > 0xffffffff) throw new Error('zip too large');
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A local (30-byte) or central (46-byte) header followed by the name. */
function header(
  signature: number,
  size: number,
  name: Buffer,
  fields: { crc: number; compressed: number; size: number },
): Buffer {
  const out = Buffer.alloc(size + name.length);
  out.writeUInt32LE(signature, 0);
  const central = signature === CENTRAL;
  // The central header has "version made by" first; the rest is shifted by two bytes.
  const at = central ? 2 : 0;
  if (central) out.writeUInt16LE(20, 4);
  out.writeUInt16LE(20, 4 + at); // version needed
  out.writeUInt16LE(0x0800, 6 + at); // UTF-8 names
  out.writeUInt16LE(8, 8 + at); // deflate
  out.writeUInt32LE(fields.crc >>> 0, 14 + at);
  out.writeUInt32LE(fields.compressed, 18 + at);
  out.writeUInt32LE(fields.size, 22 + at);
  out.writeUInt16LE(name.length, 26 + at);
  name.copy(out, size);
  return out;
}
