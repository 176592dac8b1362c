import { deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { writeZipEntries } from '../engine/files/zip-entries.js';
import { holdsSecret } from './binary-scan.js';

const SECRET = 'Sup3r-Secret!';
const noise = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255, 254]);
const wrap = (inner: Buffer): Buffer => Buffer.concat([noise, inner, noise]);

describe('binary scan', () => {
  it('finds a secret raw, as UTF-16 and base64 inside binary bytes', () => {
    expect(holdsSecret(wrap(Buffer.from(SECRET)), [SECRET])).toBe(true);
    expect(holdsSecret(wrap(Buffer.from(SECRET, 'utf16le')), [SECRET])).toBe(true);
    expect(
      holdsSecret(wrap(Buffer.from(`xx${Buffer.from(`ab${SECRET}`).toString('base64')}`)), [SECRET]),
    ).toBe(true);
  });

  it('finds a secret inside gzip and zip containers, nested', () => {
    const gz = gzipSync(Buffer.from(`user=${SECRET}`));
    expect(gz.includes(Buffer.from(SECRET))).toBe(false);
    expect(holdsSecret(gz, [SECRET])).toBe(true);
    const zip = writeZipEntries([{ name: 'inner.gz', data: gz }]);
    expect(holdsSecret(zip, [SECRET])).toBe(true);
  });

  it('passes bytes without the secret, and ignores empty or very short values', () => {
    expect(holdsSecret(wrap(gzipSync(Buffer.from('nothing here'))), [SECRET])).toBe(false);
    expect(holdsSecret(Buffer.from('abc'), ['', 'ab'])).toBe(false);
    expect(holdsSecret(deflateRawSync(Buffer.from(SECRET)), [])).toBe(false);
  });

  it('counts a container it cannot open within bounds as holding a secret', () => {
    const broken = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from('not gzip at all')]);
    expect(holdsSecret(broken, [SECRET])).toBe(true);
  });
});
