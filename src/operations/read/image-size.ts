import { BrowserMeshError, ErrorCodes } from '../../errors.js';

/** The image formats screenshots are taken in: PNG (lossless, the default) or JPEG (smaller). */
export type ImageType = 'png' | 'jpeg';

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Width and height read from the encoded image itself (not from what was asked for), so the limits
 * are checked against what really leaves the server.
 */
export function imageSize(image: Buffer, type: ImageType): ImageSize {
  const size = type === 'png' ? pngSize(image) : jpegSize(image);
  if (!size) throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, `The browser returned an invalid ${type}`);
  return size;
}

/** Width and height from the PNG IHDR chunk. */
function pngSize(png: Buffer): ImageSize | undefined {
  if (png.length < 24 || png.readUInt32BE(12) !== 0x49484452) return undefined;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

// Start-of-frame markers carry the dimensions; C4 (Huffman tables), C8 (reserved) and CC
// (arithmetic coding) share the range but are not frames.
const NOT_FRAMES = new Set([0xc4, 0xc8, 0xcc]);

/** Width and height from the first JPEG start-of-frame segment (baseline or progressive). */
function jpegSize(jpeg: Buffer): ImageSize | undefined {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 9 <= jpeg.length) {
    if (jpeg[offset] !== 0xff) return undefined;
    const marker = jpeg[offset + 1] ?? 0;
    // Fill bytes (0xFF padding) before a marker.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && !NOT_FRAMES.has(marker)) {
      return { height: jpeg.readUInt16BE(offset + 5), width: jpeg.readUInt16BE(offset + 7) };
    }
    // Markers without a length (start of image, restart markers).
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    offset += 2 + jpeg.readUInt16BE(offset + 2);
  }
  return undefined;
}
