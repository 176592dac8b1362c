import { promises as fs, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../errors.js';
import { FileQuotaPool, SessionFiles, sanitizeFileName } from './session-files.js';

function make(quotaBytes = 1000, pool = new FileQuotaPool(10_000), sessionId = 's_test1') {
  const root = mkdtempSync(join(tmpdir(), 'bm-files-'));
  return { files: new SessionFiles({ root, sessionId, quotaBytes, total: pool }), root, pool };
}

async function write(files: SessionFiles, name: string, content: string | Buffer) {
  const { fileId, path } = await files.allocate('download', name);
  await fs.writeFile(path, content);
  return { fileId, path };
}

describe('sanitizeFileName', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\system.ini', 'system.ini'],
    ['.bashrc', 'bashrc'],
    ['...', 'file'],
    ['', 'file'],
    ['report\u202Efdp.exe', 'reportfdp.exe'],
    ['a\u0000b\nc.txt', 'abc.txt'],
    ['what?<x>.csv', 'what__x_.csv'],
    ['  spaced name.pdf  ', 'spaced name.pdf'],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeFileName(input)).toBe(expected);
  });

  it('bounds the length in UTF-8 bytes and keeps the extension', () => {
    const name = sanitizeFileName(`${'é'.repeat(300)}.pdf`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(120);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('SessionFiles', () => {
  it('creates the folder lazily (0700) and keeps every path inside it', async () => {
    const { files, root } = make();
    await expect(fs.stat(join(root, 'sessions'))).rejects.toThrow();
    const { path } = await write(files, '../../../outside.txt', 'hello');
    expect(dirname(path)).toBe(files.folder);
    expect(files.folder).toBe(join(root, 'sessions', 's_test1'));
    expect((await fs.stat(files.folder)).mode & 0o777).toBe(0o700);
    expect(await fs.readdir(root)).toEqual(['sessions']);
  });

  it('gives colliding names a unique suffix and commits size and MIME type', async () => {
    const { files } = make();
    const a = await write(files, 'data.csv', 'a,b');
    const b = await write(files, 'sub/data.csv', 'c,d,e');
    expect(b.path.endsWith('data-2.csv')).toBe(true);
    const info = await files.commit(b.fileId, { mimeType: 'text/csv' });
    expect(info).toMatchObject({ name: 'data-2.csv', bytes: 5, mimeType: 'text/csv', state: 'completed' });
    expect(files.get(a.fileId).state).toBe('in_progress');
    expect(files.list('pdf')).toEqual([]);
    expect(files.list().map((f) => f.name)).toEqual(['data.csv', 'data-2.csv']);
  });

  it('reads bounded slices', async () => {
    const { files } = make();
    const { fileId } = await write(files, 'a.txt', '0123456789');
    await files.commit(fileId);
    expect(await files.read(fileId, { maxBytes: 4 })).toMatchObject({ truncated: true, totalBytes: 10 });
    const tail = await files.read(fileId, { offset: 8, maxBytes: 4 });
    expect(tail.bytes.toString()).toBe('89');
    expect(tail.truncated).toBe(false);
  });

  it('refuses a file over the session quota, deletes it and frees nothing it did not take', async () => {
    const pool = new FileQuotaPool(10_000);
    const { files } = make(10, pool);
    const { fileId, path } = await write(files, 'big.bin', Buffer.alloc(11));
    await expect(files.commit(fileId)).rejects.toMatchObject({ code: ErrorCodes.LIMIT_EXCEEDED });
    await expect(fs.stat(path)).rejects.toThrow();
    expect(files.get(fileId).state).toBe('failed');
    expect(pool.usedBytes).toBe(0);
  });

  it('refuses a file over the total pool shared by sessions', async () => {
    const pool = new FileQuotaPool(15);
    const one = make(100, pool, 's_one').files;
    const two = make(100, pool, 's_two').files;
    await one.commit((await write(one, 'a', Buffer.alloc(10))).fileId);
    const second = await write(two, 'b', Buffer.alloc(10));
    await expect(two.commit(second.fileId)).rejects.toMatchObject({
      code: ErrorCodes.LIMIT_EXCEEDED,
      details: { field: 'totalFileQuotaBytes' },
    });
    expect(pool.usedBytes).toBe(10);
  });

  it('refuses to allocate once the session quota is used up', async () => {
    const { files } = make(5);
    await files.commit((await write(files, 'a', Buffer.alloc(5))).fileId);
    await expect(files.allocate('pdf', 'b.pdf')).rejects.toMatchObject({ code: ErrorCodes.LIMIT_EXCEEDED });
  });

  it('remove frees quota; unknown or removed ids are FILE_NOT_FOUND', async () => {
    const pool = new FileQuotaPool(100);
    const { files } = make(100, pool);
    const { fileId, path } = await write(files, 'a', Buffer.alloc(7));
    await files.commit(fileId);
    await files.remove(fileId);
    expect(pool.usedBytes).toBe(0);
    await expect(fs.stat(path)).rejects.toThrow();
    expect(files.list()).toEqual([]);
    await expect(files.read(fileId, { maxBytes: 1 })).rejects.toMatchObject({
      code: ErrorCodes.FILE_NOT_FOUND,
    });
    expect(() => files.get('f_nope')).toThrow(expect.objectContaining({ code: ErrorCodes.FILE_NOT_FOUND }));
  });

  it('does not follow a symlink planted in place of a file', async () => {
    const { files, root } = make();
    const secret = join(root, 'secret.txt');
    await fs.writeFile(secret, 'top secret');
    const { fileId, path } = await files.allocate('download', 'x.txt');
    await fs.symlink(secret, path);
    await expect(files.commit(fileId)).rejects.toMatchObject({ code: ErrorCodes.BROWSER_ERROR });
    expect(await fs.readFile(secret, 'utf8')).toBe('top secret');
  });

  it('keep copies out under a unique name', async () => {
    const { files, root } = make();
    const { fileId } = await write(files, 'r.txt', 'hi');
    await files.commit(fileId);
    const dest = join(root, 'kept');
    const first = await files.keep(fileId, dest);
    const second = await files.keep(fileId, dest);
    expect([first, second].map((p) => p.slice(dest.length + 1))).toEqual(['r.txt', 'r-2.txt']);
    expect(await fs.readFile(second, 'utf8')).toBe('hi');
  });

  it('dispose removes the folder, frees the pool, is idempotent and closes the files', async () => {
    const pool = new FileQuotaPool(100);
    const { files } = make(100, pool);
    await files.commit((await write(files, 'a', Buffer.alloc(3))).fileId);
    await files.dispose();
    await files.dispose();
    expect(pool.usedBytes).toBe(0);
    await expect(fs.stat(files.folder)).rejects.toThrow();
    await expect(files.allocate('download', 'b')).rejects.toMatchObject({ code: ErrorCodes.SESSION_CLOSED });
  });

  it('dispose with keepAll leaves the files on disk', async () => {
    const { files } = make();
    const { fileId, path } = await write(files, 'a.txt', 'x');
    await files.commit(fileId);
    await files.dispose({ keepAll: true });
    expect(await fs.readFile(path, 'utf8')).toBe('x');
  });

  it('refuses a session id that is not a plain folder name', () => {
    expect(() => make(1, new FileQuotaPool(1), '../evil')).toThrow();
  });
});
