/**
 * A small, strict AVI (RIFF) reader for the tests: it walks the chunk tree exactly as a decoder
 * would and fails loudly on any size or fourcc that does not add up.
 */

export interface ParsedAvi {
  avih: {
    microSecPerFrame: number;
    flags: number;
    totalFrames: number;
    streams: number;
    width: number;
    height: number;
  };
  strh: { type: string; handler: string; scale: number; rate: number; length: number };
  strf: { width: number; height: number; compression: string };
  /** The `00dc` chunks of `movi`, in order. */
  frames: Buffer[];
  /** idx1 entries: chunk id, flags, offset from the `movi` fourcc, size. */
  index: Array<{ id: string; flags: number; offset: number; size: number }>;
  /** Offset of the `movi` fourcc in the file (idx1 offsets count from there). */
  moviOffset: number;
}

interface Chunk {
  id: string;
  /** For LIST/RIFF: the list type. */
  type?: string;
  offset: number;
  data: Buffer;
  children?: Chunk[];
}

export function parseAvi(file: Buffer): ParsedAvi {
  if (file.toString('latin1', 0, 4) !== 'RIFF' || file.toString('latin1', 8, 12) !== 'AVI ')
    throw new Error('not a RIFF AVI file');
  const riffSize = file.readUInt32LE(4);
  if (riffSize + 8 !== file.length) throw new Error(`RIFF size ${riffSize + 8} != file size ${file.length}`);
  const top = readChunks(file, 12, file.length);
  const hdrl = find(top, 'LIST', 'hdrl');
  const movi = find(top, 'LIST', 'movi');
  const idx1 = top.find((chunk) => chunk.id === 'idx1');
  if (!idx1) throw new Error('no idx1 chunk');
  const avih = chunkIn(hdrl, 'avih').data;
  const strl = find(hdrl.children ?? [], 'LIST', 'strl');
  const strh = chunkIn(strl, 'strh').data;
  const strf = chunkIn(strl, 'strf').data;
  const index = [];
  for (let at = 0; at + 16 <= idx1.data.length; at += 16) {
    index.push({
      id: idx1.data.toString('latin1', at, at + 4),
      flags: idx1.data.readUInt32LE(at + 4),
      offset: idx1.data.readUInt32LE(at + 8),
      size: idx1.data.readUInt32LE(at + 12),
    });
  }
  return {
    avih: {
      microSecPerFrame: avih.readUInt32LE(0),
      flags: avih.readUInt32LE(12),
      totalFrames: avih.readUInt32LE(16),
      streams: avih.readUInt32LE(24),
      width: avih.readUInt32LE(32),
      height: avih.readUInt32LE(36),
    },
    strh: {
      type: strh.toString('latin1', 0, 4),
      handler: strh.toString('latin1', 4, 8),
      scale: strh.readUInt32LE(20),
      rate: strh.readUInt32LE(24),
      length: strh.readUInt32LE(32),
    },
    strf: {
      width: strf.readUInt32LE(4),
      height: strf.readUInt32LE(8),
      compression: strf.toString('latin1', 16, 20),
    },
    frames: (movi.children ?? []).filter((chunk) => chunk.id === '00dc').map((chunk) => chunk.data),
    index,
    moviOffset: movi.offset + 8,
  };
}

function readChunks(file: Buffer, start: number, end: number): Chunk[] {
  const chunks: Chunk[] = [];
  let at = start;
  while (at < end) {
    if (at + 8 > end) throw new Error(`truncated chunk header at ${at}`);
    const id = file.toString('latin1', at, at + 4);
    const size = file.readUInt32LE(at + 4);
    const dataEnd = at + 8 + size;
    if (dataEnd > end) throw new Error(`chunk ${id} at ${at} runs past its parent (${dataEnd} > ${end})`);
    if (id === 'LIST') {
      const type = file.toString('latin1', at + 8, at + 12);
      chunks.push({
        id,
        type,
        offset: at,
        data: file.subarray(at + 12, dataEnd),
        children: readChunks(file, at + 12, dataEnd),
      });
    } else {
      chunks.push({ id, offset: at, data: file.subarray(at + 8, dataEnd) });
    }
    at = dataEnd + (size % 2);
  }
  return chunks;
}

function find(chunks: Chunk[], id: string, type: string): Chunk {
  const chunk = chunks.find((c) => c.id === id && c.type === type);
  if (!chunk) throw new Error(`no ${id} ${type}`);
  return chunk;
}

function chunkIn(list: Chunk, id: string): Chunk {
  const chunk = (list.children ?? []).find((c) => c.id === id);
  if (!chunk) throw new Error(`no ${id} in ${list.type}`);
  return chunk;
}

/** Whether bytes are a JPEG: starts with SOI (FF D8) and ends with EOI (FF D9). */
export function isJpeg(bytes: Buffer): boolean {
  return (
    bytes[0] === 0xff &&
    bytes[1] === 0xd8 &&
    bytes[bytes.length - 2] === 0xff &&
    bytes[bytes.length - 1] === 0xd9
  );
}
