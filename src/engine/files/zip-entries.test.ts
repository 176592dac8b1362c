import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readZipEntries, writeZipEntries } from './zip-entries.js';

describe('zip entries', () => {
  it('writes a zip it reads back, byte for byte', () => {
    const entries = [
      { name: 'trace.trace', data: Buffer.from('{"type":"before"}\n'.repeat(50)) },
      { name: 'resources/ä.bin', data: Buffer.from([0, 1, 2, 255]) },
      { name: 'empty', data: Buffer.alloc(0) },
    ];
    const back = readZipEntries(writeZipEntries(entries));
    expect(back.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    back.forEach((entry, i) => expect(entry.data.equals(entries[i]?.data ?? Buffer.alloc(1))).toBe(true));
  });

  it('writes a zip that unzip accepts (CRCs and offsets right)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-'));
    const file = join(dir, 'a.zip');
    writeFileSync(file, writeZipEntries([{ name: 'a.txt', data: Buffer.from('hello') }]));
    const check =
      'import sys,zipfile;z=zipfile.ZipFile(sys.argv[1]);print(z.testzip(),z.read("a.txt").decode())';
    const listing = execFileSync('python3', ['-c', check, file]).toString();
    expect(listing.trim()).toBe('None hello');
  });

  it('refuses what is not a zip', () => {
    expect(() => readZipEntries(Buffer.from('plain text'))).toThrow();
  });
});
