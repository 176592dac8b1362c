import { open, type FileHandle } from 'node:fs/promises';

/**
 * A Motion-JPEG AVI 1.0 writer that streams frames to disk: the file is playable by VLC, ffmpeg,
 * and QuickTime (not browsers' `<video>`: Chromium refuses Motion-JPEG), and needs no ffmpeg or native module to produce.
 *
 * Layout (all little-endian):
 * ```
 * RIFF <size> 'AVI '
 *   LIST <size> 'hdrl'  avih(56) · LIST 'strl' [ strh(56) · strf(40) ]
 *   LIST <size> 'movi'  '00dc' <jpeg> …
 *   idx1 <16 × frames>
 * ```
 * The header region has a fixed size, so it is written last, once the frame count is known; frames
 * are appended as they arrive and only their offsets (16 bytes each) are kept in memory.
 */

/** Byte length of everything before the first frame: RIFF header, hdrl list, movi list header. */
const HDRL_LIST_BYTES = 12 + (8 + 56) + (12 + (8 + 56) + (8 + 40));
const MOVI_START = 12 + HDRL_LIST_BYTES;
const HEADER_BYTES = MOVI_START + 12;
const AVIF_HASINDEX = 0x10;
const AVIIF_KEYFRAME = 0x10;

export interface AviSummary {
  frames: number;
  width: number;
  height: number;
  bytes: number;
  fps: number;
}

export class MjpegAviWriter {
  private readonly index: Array<{ offset: number; size: number }> = [];
  private position = HEADER_BYTES;
  private maxFrameBytes = 0;
  private finished = false;

  private constructor(
    private readonly file: FileHandle,
    private width: number,
    private height: number,
    readonly fps: number,
  ) {}

  /**
   * Creates `path`, which must not exist yet. The stream's width and height are those given, else
   * those of the first frame (every JPEG also carries its own).
   */
  static async create(
    path: string,
    options: { fps: number; width?: number; height?: number },
  ): Promise<MjpegAviWriter> {
    // 'wx': never replaces an existing file (nor follows a planted symlink).
    const file = await open(path, 'wx', 0o644);
    return new MjpegAviWriter(file, options.width ?? 0, options.height ?? 0, options.fps);
  }

  get frameCount(): number {
    return this.index.length;
  }

  /** Appends one JPEG as a `00dc` chunk (padded to an even size, as RIFF requires). */
  async addFrame(jpeg: Uint8Array): Promise<void> {
    if (this.finished) throw new Error('the AVI writer is finished');
    if (this.width === 0)
      ({ width: this.width, height: this.height } = jpegSize(jpeg) ?? { width: 0, height: 0 });
    const padded = jpeg.length + (jpeg.length % 2);
    const chunk = Buffer.alloc(8 + padded);
    chunk.write('00dc', 0, 'latin1');
    chunk.writeUInt32LE(jpeg.length, 4);
    chunk.set(jpeg, 8);
    await this.file.write(chunk, 0, chunk.length, this.position);
    // idx1 offsets count from the 'movi' fourcc, i.e. 4 bytes after the movi LIST size field.
    this.index.push({ offset: this.position - (MOVI_START + 8), size: jpeg.length });
    this.position += chunk.length;
    this.maxFrameBytes = Math.max(this.maxFrameBytes, jpeg.length);
  }

  /** Writes the index and the headers, closes the file and reports what was written. */
  async finish(): Promise<AviSummary> {
    if (this.finished) throw new Error('the AVI writer is finished');
    this.finished = true;
    try {
      const idx = Buffer.alloc(8 + 16 * this.index.length);
      idx.write('idx1', 0, 'latin1');
      idx.writeUInt32LE(16 * this.index.length, 4);
      this.index.forEach((entry, i) => {
        const at = 8 + 16 * i;
        idx.write('00dc', at, 'latin1');
        idx.writeUInt32LE(AVIIF_KEYFRAME, at + 4);
        idx.writeUInt32LE(entry.offset, at + 8);
        idx.writeUInt32LE(entry.size, at + 12);
      });
      await this.file.write(idx, 0, idx.length, this.position);
      const total = this.position + idx.length;
      const header = this.header(total);
      await this.file.write(header, 0, header.length, 0);
      return {
        frames: this.index.length,
        width: this.width,
        height: this.height,
        bytes: total,
        fps: this.fps,
      };
    } finally {
      await this.file.close();
    }
  }

  /** Closes the file without finishing it (the caller deletes it). */
  async abort(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    await this.file.close().catch(() => undefined);
  }

  private header(totalBytes: number): Buffer {
    const b = Buffer.alloc(HEADER_BYTES);
    let at = 0;
    const fourcc = (text: string): void => {
      b.write(text, at, 'latin1');
      at += 4;
    };
    const u32 = (value: number): void => {
      b.writeUInt32LE(value >>> 0, at);
      at += 4;
    };
    const u16 = (value: number): void => {
      b.writeUInt16LE(value, at);
      at += 2;
    };
    const frames = this.index.length;
    const microSecPerFrame = Math.round(1_000_000 / this.fps);
    fourcc('RIFF');
    u32(totalBytes - 8);
    fourcc('AVI ');
    fourcc('LIST');
    u32(HDRL_LIST_BYTES - 8);
    fourcc('hdrl');
    // MainAVIHeader
    fourcc('avih');
    u32(56);
    u32(microSecPerFrame);
    u32(this.maxFrameBytes * this.fps);
    u32(0);
    u32(AVIF_HASINDEX);
    u32(frames);
    u32(0);
    u32(1);
    u32(this.maxFrameBytes);
    u32(this.width);
    u32(this.height);
    at += 16; // dwReserved[4]
    fourcc('LIST');
    u32(4 + (8 + 56) + (8 + 40));
    fourcc('strl');
    // AVIStreamHeader
    fourcc('strh');
    u32(56);
    fourcc('vids');
    fourcc('MJPG');
    u32(0); // dwFlags
    u16(0); // wPriority
    u16(0); // wLanguage
    u32(0); // dwInitialFrames
    u32(1); // dwScale
    u32(this.fps); // dwRate: frames per second = rate / scale
    u32(0); // dwStart
    u32(frames); // dwLength
    u32(this.maxFrameBytes);
    u32(0xffffffff); // dwQuality: default
    u32(0); // dwSampleSize: varies per frame
    u16(0);
    u16(0);
    u16(this.width);
    u16(this.height);
    // BITMAPINFOHEADER
    fourcc('strf');
    u32(40);
    u32(40);
    u32(this.width);
    u32(this.height);
    u16(1);
    u16(24);
    fourcc('MJPG');
    u32(this.width * this.height * 3);
    at += 16; // pels per meter, colours used / important
    fourcc('LIST');
    u32(this.position - (MOVI_START + 8));
    fourcc('movi');
    return b;
  }
}

/** Width and height from a JPEG's start-of-frame marker; undefined when it is not a baseline/progressive JPEG. */
export function jpegSize(jpeg: Uint8Array): { width: number; height: number } | undefined {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < jpeg.length) {
    if (jpeg[at] !== 0xff) return undefined;
    const marker = jpeg[at + 1] ?? 0;
    const length = ((jpeg[at + 2] ?? 0) << 8) | (jpeg[at + 3] ?? 0);
    // SOF0..SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = ((jpeg[at + 5] ?? 0) << 8) | (jpeg[at + 6] ?? 0);
      const width = ((jpeg[at + 7] ?? 0) << 8) | (jpeg[at + 8] ?? 0);
      return { width, height };
    }
    at += 2 + length;
  }
  return undefined;
}
