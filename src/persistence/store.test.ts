import { mkdtempSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../errors.js';
import type { StorageState } from './format.js';
import { StateStore, type StateStoreOptions } from './store.js';

function store(overrides: Partial<StateStoreOptions> = {}): { store: StateStore; dataDir: string } {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'bm-store-')), 'data');
  const options = {
    dataDir,
    enabled: true,
    maxStates: 100,
    maxStateBytes: 1_048_576,
    maxTotalBytes: 16_777_216,
    ...overrides,
  };
  return { store: new StateStore(options), dataDir };
}

function state(value = 'v', extra = 0): StorageState {
  return {
    cookies: [
      {
        name: 'sid',
        value,
        domain: '127.0.0.1',
        path: '/',
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: 'Lax',
      },
    ],
    origins: [{ origin: 'http://127.0.0.1:1', localStorage: [{ name: 'pad', value: 'x'.repeat(extra) }] }],
  };
}

const code = (code: string) => expect.objectContaining({ code });

describe('StateStore', () => {
  it('saves atomically into private files and loads the same state back', async () => {
    const { store: s, dataDir } = store();
    const saved = await s.save('buyer', state('abc'));
    expect(saved).toMatchObject({ stateId: 'buyer', cookies: 1, origins: 1, replaced: false });
    expect(await s.load('buyer')).toEqual(state('abc'));
    expect((await fs.stat(dataDir)).mode & 0o777).toBe(0o700);
    expect((await fs.stat(join(dataDir, 'states'))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(join(dataDir, 'states', 'buyer.json'))).mode & 0o777).toBe(0o600);
    expect(await fs.readdir(join(dataDir, 'states'))).toEqual(['buyer.json']);
    expect((await s.save('buyer', state('def'))).replaced).toBe(true);
    expect((await s.load('buyer')).cookies[0]?.value).toBe('def');
  });

  it.each(['../x', 'a/b', '.hidden', '', 'a'.repeat(65), 'a.json', 'é', '-lead', 'a b', 'a\\b', 'x\u0000'])(
    'refuses the id %j without touching the disk',
    async (id) => {
      const { store: s, dataDir } = store();
      await expect(s.save(id, state())).rejects.toThrow(code(ErrorCodes.INVALID_ARGUMENT));
      await expect(s.load(id)).rejects.toThrow(code(ErrorCodes.INVALID_ARGUMENT));
      await expect(s.remove(id)).rejects.toThrow(code(ErrorCodes.INVALID_ARGUMENT));
      await expect(fs.stat(dataDir)).rejects.toThrow();
    },
  );

  it('checks quotas in order (count, state bytes, total bytes) and keeps the old state when refused', async () => {
    const { store: s } = store({ maxStates: 2, maxStateBytes: 1900, maxTotalBytes: 2000 });
    await s.save('a', state('old'));
    await s.save('b', state('b'));
    // Count first: a third id is refused even though it is also too big.
    await expect(s.save('c', state('c', 5000))).rejects.toThrow(code(ErrorCodes.LIMIT_EXCEEDED));
    await expect(s.save('c', state('c'))).rejects.toMatchObject({ details: { field: 'maxSavedStates' } });
    // Replacing an existing id is not a new state.
    await expect(s.save('a', state('a', 5000))).rejects.toMatchObject({
      details: { field: 'maxStateBytes' },
    });
    await expect(s.save('a', state('a', 1500))).rejects.toMatchObject({
      details: { field: 'maxStateTotalBytes' },
    });
    expect((await s.load('a')).cookies[0]?.value).toBe('old');
    const list = await s.list();
    expect(list.states.map((x) => x.stateId)).toEqual(['a', 'b']);
  });

  it('serializes concurrent saves: one id ends whole, and a quota is never overshot', async () => {
    const { store: s, dataDir } = store({ maxStates: 3 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => s.save('same', state(`v${i}`, i * 100))));
    const loaded = await s.load('same');
    expect(loaded.cookies[0]?.value).toBe('v11');
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => s.save(`id${i}`, state())));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect((await s.list()).states).toHaveLength(3);
    expect((await fs.readdir(join(dataDir, 'states'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('reports a truncated or foreign file as STATE_CORRUPTED and a missing one as STATE_NOT_FOUND', async () => {
    const { store: s, dataDir } = store();
    await s.save('good', state());
    const file = join(dataDir, 'states', 'good.json');
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.slice(0, text.length / 2));
    await expect(s.load('good')).rejects.toThrow(code(ErrorCodes.STATE_CORRUPTED));
    await fs.writeFile(file, JSON.stringify({ cookies: [], origins: [] }));
    await expect(s.load('good')).rejects.toThrow(code(ErrorCodes.STATE_CORRUPTED));
    await fs.writeFile(file, Buffer.from([0xff, 0xfe, 0x00]));
    await expect(s.load('good')).rejects.toThrow(code(ErrorCodes.STATE_CORRUPTED));
    await expect(s.load('missing')).rejects.toThrow(code(ErrorCodes.STATE_NOT_FOUND));
  });

  it('size-checks a file before reading it', async () => {
    const { store: s, dataDir } = store({ maxStateBytes: 1024 });
    await s.save('big', state());
    await fs.writeFile(join(dataDir, 'states', 'big.json'), `{"pad":"${'x'.repeat(10_000)}"}`);
    await expect(s.load('big')).rejects.toMatchObject({
      code: ErrorCodes.LIMIT_EXCEEDED,
      details: { field: 'maxStateBytes' },
    });
  });

  it('never follows a symlink planted in the states directory', async () => {
    const { store: s, dataDir } = store();
    await s.save('real', state());
    const outside = join(dataDir, 'outside.json');
    await fs.writeFile(outside, '{}');
    await fs.symlink(outside, join(dataDir, 'states', 'link.json'));
    await expect(s.load('link')).rejects.toThrow(code(ErrorCodes.STATE_CORRUPTED));
    expect((await s.list()).states.map((x) => x.stateId)).toEqual(['real']);
  });

  it('removes idempotently and lists only valid state files', async () => {
    const { store: s, dataDir } = store();
    await s.save('x', state());
    await fs.writeFile(join(dataDir, 'states', '.x.123.tmp'), 'partial');
    await fs.writeFile(join(dataDir, 'states', 'notes.txt'), 'stray');
    const list = await s.list();
    expect(list.states.map((x) => x.stateId)).toEqual(['x']);
    expect(list.totalBytes).toBe(list.states[0]?.bytes);
    expect(await s.remove('x')).toEqual({ stateId: 'x', removed: true });
    expect(await s.remove('x')).toEqual({ stateId: 'x', removed: false });
  });

  it('refuses everything with PERSISTENCE_DISABLED when off, without creating the directory', async () => {
    const { store: s, dataDir } = store({ enabled: false });
    await expect(s.save('a', state())).rejects.toThrow(code(ErrorCodes.PERSISTENCE_DISABLED));
    await expect(s.load('a')).rejects.toThrow(code(ErrorCodes.PERSISTENCE_DISABLED));
    await expect(s.list()).rejects.toThrow(code(ErrorCodes.PERSISTENCE_DISABLED));
    await expect(s.remove('a')).rejects.toThrow(code(ErrorCodes.PERSISTENCE_DISABLED));
    await expect(fs.stat(dataDir)).rejects.toThrow();
  });

  it('keeps state values out of error messages', async () => {
    const { store: s } = store({ maxStateBytes: 1024 });
    const error = await s.save('a', state('SECRET-COOKIE-VALUE', 4000)).catch((e: unknown) => e);
    expect(
      JSON.stringify({
        message: (error as Error).message,
        details: (error as { details?: unknown }).details,
      }),
    ).not.toContain('SECRET');
  });
});
