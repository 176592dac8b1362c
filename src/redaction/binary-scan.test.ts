import { deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { writeZipEntries } from '../engine/files/zip-entries.js';
import { holdsSecret } from './binary-scan.js';

const SECRET = 'Sup3r-Secret!';
const noise = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255, 254]);
const wrap = (inner: Buffer): Buffer => Buffer.concat([noise, inner, noise]);

describe('binary scan', async () => {
  it('finds a secret raw, as UTF-16 and base64 inside binary bytes', async () => {
    expect(await holdsSecret(wrap(Buffer.from(SECRET)), [SECRET])).toBe(true);
    expect(await holdsSecret(wrap(Buffer.from(SECRET, 'utf16le')), [SECRET])).toBe(true);
    expect(
      await holdsSecret(wrap(Buffer.from(`xx${Buffer.from(`ab${SECRET}`).toString('base64')}`)), [SECRET]),
    ).toBe(true);
  });

  it('finds a secret inside gzip and zip containers, nested', async () => {
    const gz = gzipSync(Buffer.from(`user=${SECRET}`));
    expect(gz.includes(Buffer.from(SECRET))).toBe(false);
    expect(await holdsSecret(gz, [SECRET])).toBe(true);
    const zip = writeZipEntries([{ name: 'inner.gz', data: gz }]);
    expect(await holdsSecret(zip, [SECRET])).toBe(true);
  });

  it('passes bytes without the secret, and ignores empty or very short values', async () => {
    expect(await holdsSecret(wrap(gzipSync(Buffer.from('nothing here'))), [SECRET])).toBe(false);
    expect(await holdsSecret(Buffer.from('abc'), ['', 'ab'])).toBe(false);
    expect(await holdsSecret(deflateRawSync(Buffer.from(SECRET)), [])).toBe(false);
  });

  it('counts a container it cannot open within bounds as holding a secret', async () => {
    const broken = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from('not gzip at all')]);
    expect(await holdsSecret(broken, [SECRET])).toBe(true);
  });

  it('finds a form cut by a chunk boundary, in every view', async () => {
    for (const at of [1024 * 1024 - 5, 1024 * 1024 - 4, 2 * 1024 * 1024 - 1]) {
      for (const encoding of ['utf8', 'utf16le'] as const) {
        const big = Buffer.alloc(3 * 1024 * 1024, 0x20);
        Buffer.from(SECRET, encoding).copy(big, encoding === 'utf16le' ? at - (at % 2) : at);
        expect(await holdsSecret(big, [SECRET]), `${encoding} at ${at}`).toBe(true);
      }
    }
    expect(await holdsSecret(Buffer.alloc(3 * 1024 * 1024, 0x20), [SECRET])).toBe(false);
  });
});
