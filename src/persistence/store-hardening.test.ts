import { mkdtempSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBrowserMeshError } from '../errors.js';
import type { StorageState } from './format.js';
import { StateStore } from './store.js';

const LIMITS = { enabled: true, maxStates: 10, maxStateBytes: 65_536, maxTotalBytes: 1_048_576 };
const STATE: StorageState = { cookies: [], origins: [] };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return isBrowserMeshError(error) ? `${error.code}:${String(error.details?.reason)}` : 'other';
  }
}

describe('StateStore hardening', () => {
  it('refuses a states directory that is a symlink: nothing is written through it, nothing read', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bm-harden-'));
    const elsewhere = join(root, 'elsewhere');
    await fs.mkdir(elsewhere);
    await fs.writeFile(join(elsewhere, 'planted.json'), '{}');
    const dataDir = join(root, 'data');
    await fs.mkdir(dataDir);
    await fs.symlink(elsewhere, join(dataDir, 'states'));
    const store = new StateStore({ dataDir, ...LIMITS });
    const refused = 'PERSISTENCE_DISABLED:states_dir_not_directory';
    expect(await codeOf(store.save('a', STATE))).toBe(refused);
    expect(await codeOf(store.list())).toBe(refused);
    expect(await codeOf(store.load('planted'))).toBe(refused);
    expect(await codeOf(store.remove('planted'))).toBe(refused);
    expect((await fs.readdir(elsewhere)).sort()).toEqual(['planted.json']);
  });

  it('refuses a states "directory" that is a file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bm-harden-'));
    await fs.writeFile(join(dataDir, 'states'), 'not a directory');
    const store = new StateStore({ dataDir, ...LIMITS });
    expect(await codeOf(store.save('a', STATE))).toBe('PERSISTENCE_DISABLED:states_dir_not_directory');
  });

  it('keeps each principal in its own directory, named by a digest (never the name)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bm-harden-'));
    const alice = new StateStore({ dataDir, ...LIMITS, principal: '../alice' });
    const bob = new StateStore({ dataDir, ...LIMITS, principal: 'bob' });
    await alice.save('login', STATE);
    expect((await bob.list()).states).toEqual([]);
    expect((await alice.list()).states.map((s) => s.stateId)).toEqual(['login']);
    const dirs = await fs.readdir(join(dataDir, 'principals'));
    expect(dirs).toHaveLength(1);
    expect(dirs[0]).toMatch(/^[0-9a-f]{32}$/);
  });
});
