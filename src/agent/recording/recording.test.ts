import { mkdtemp, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isJpeg, parseAvi } from '../../../test/integration/support/avi.js';
import { jpegSize, MjpegAviWriter } from '../../engine/media/avi-writer.js';
import { toSrt } from '../../engine/media/captions.js';
import { captionPathFor, resolveOutputPath } from './output-path.js';

/** A minimal JPEG-shaped buffer: SOI, an SOF0 with the size, some payload, EOI. */
function fakeJpeg(width: number, height: number, payloadBytes: number): Buffer {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    sof,
    Buffer.alloc(payloadBytes, 0x55),
    Buffer.from([0xff, 0xd9]),
  ]);
}

describe('MjpegAviWriter', () => {
  it('writes an AVI whose headers, movi chunks and index a RIFF parser reads back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm-avi-'));
    const path = join(dir, 'out.avi');
    const writer = await MjpegAviWriter.create(path, { width: 320, height: 200, fps: 10 });
    const frames = [fakeJpeg(320, 200, 101), fakeJpeg(320, 200, 50), fakeJpeg(320, 200, 77)];
    for (const frame of frames) await writer.addFrame(frame);
    const summary = await writer.finish();
    const file = await readFile(path);
    expect(summary).toMatchObject({ frames: 3, width: 320, height: 200, bytes: file.length, fps: 10 });
    const avi = parseAvi(file);
    expect(avi.avih).toMatchObject({
      microSecPerFrame: 100_000,
      totalFrames: 3,
      streams: 1,
      width: 320,
      height: 200,
      flags: 0x10,
    });
    expect(avi.strh).toMatchObject({ type: 'vids', handler: 'MJPG', scale: 1, rate: 10, length: 3 });
    expect(avi.strf).toMatchObject({ width: 320, height: 200, compression: 'MJPG' });
    expect(avi.frames).toEqual(frames);
    expect(avi.frames.every(isJpeg)).toBe(true);
    // idx1 points at each 00dc chunk, counted from the movi fourcc.
    for (const [i, entry] of avi.index.entries()) {
      expect(entry).toMatchObject({ id: '00dc', flags: 0x10, size: frames[i]?.length });
      expect(file.toString('latin1', avi.moviOffset + entry.offset, avi.moviOffset + entry.offset + 4)).toBe(
        '00dc',
      );
    }
  });

  it('never overwrites an existing file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm-avi-'));
    const path = join(dir, 'taken.avi');
    await writeFile(path, 'keep me');
    await expect(MjpegAviWriter.create(path, { width: 1, height: 1, fps: 10 })).rejects.toThrow();
    expect(await readFile(path, 'utf8')).toBe('keep me');
  });

  it('reads the size from the JPEG start-of-frame marker', () => {
    expect(jpegSize(fakeJpeg(1024, 576, 10))).toEqual({ width: 1024, height: 576 });
    expect(jpegSize(Buffer.from('not a jpeg'))).toBeUndefined();
  });
});

describe('recording output paths', () => {
  it('keeps every recording directly inside the output directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm-rec-'));
    expect(dirname(await resolveOutputPath(dir, 'checkout.mp4', 'mp4'))).toBe(await realpath(dir));
    // The extension follows the format produced; the stem is the agent's.
    expect(await resolveOutputPath(dir, 'named', 'mp4')).toMatch(/\/named\.mp4$/);
    expect(await resolveOutputPath(dir, 'named.mp4', 'avi')).toMatch(/\/named\.avi$/);
    expect(await resolveOutputPath(dir, 'old.avi', 'mp4')).toMatch(/\/old\.mp4$/);
    expect(await resolveOutputPath(dir, undefined, 'mp4')).toMatch(/recording-[^/]*\.mp4$/);
    for (const bad of [
      '../escape.avi',
      '/etc/passwd.avi',
      'sub/dir.avi',
      '..',
      '.hidden.avi',
      'a\u0000b.avi',
      'c:evil.avi',
      'clip.webm',
    ]) {
      await expect(resolveOutputPath(dir, bad, 'mp4'), bad).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    }
  });

  it('resolves a symlinked output directory to its real place once', async () => {
    const real = await mkdtemp(join(tmpdir(), 'bm-rec-real-'));
    const link = join(await mkdtemp(join(tmpdir(), 'bm-rec-link-')), 'out');
    await symlink(real, link);
    expect(dirname(await resolveOutputPath(link, 'a.avi', 'avi'))).toBe(await realpath(real));
    expect(captionPathFor('/x/y/a.avi')).toBe('/x/y/a.srt');
  });
});

describe('captions', () => {
  it('writes SubRip cues that never overlap', () => {
    const srt = toSrt([
      { atMs: 0, durationMs: 3000, text: 'Open the shop' },
      { atMs: 1500, durationMs: 2000, text: 'Log\nin' },
      { atMs: 3_723_004, durationMs: 1000, text: 'Late' },
    ]);
    expect(srt).toBe(
      '1\n00:00:00,000 --> 00:00:01,500\nOpen the shop\n\n2\n00:00:01,500 --> 00:00:03,500\nLog in\n\n3\n01:02:03,004 --> 01:02:04,004\nLate\n',
    );
  });
});
