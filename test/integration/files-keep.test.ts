import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

// A download can be kept with the saved state folder or removed. browser_files action=keep
// copies it beside the saved states, where it outlives the session, within the saved-state quotas.

interface Kept {
  name: string;
  bytes: number;
  path: string;
}

let site: FixtureServer;
let h: McpHarness;

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
// Two kept files at most; 4,100 bytes for saved states and kept files together.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files', 'persistence'],
  maxSavedStates: 2,
  maxStateTotalBytes: 4100,
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
});

const keptFolder = (): string => join(h.mesh.config.dataDir, 'states', 'files');

async function download(s: { sessionId: string; pageId: string }, name: string): Promise<string> {
  const result = await h.ok<{ downloads?: Array<{ downloadId: string; state: string }> }>('browser_click', {
    ...s,
    locator: { role: 'link', name },
  });
  expect(result.downloads?.[0]?.state).toBe('completed');
  return result.downloads?.[0]?.downloadId ?? '';
}

describe('browser_files action=keep', () => {
  test('keeps a download beside the saved states, where it survives the session', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/files/download') });
    const fileId = await download(s, 'Text report');
    const { kept } = await h.ok<{ kept: Kept }>('browser_files', {
      sessionId: s.sessionId,
      action: 'keep',
      fileId,
    });
    expect(kept).toEqual({ name: 'report.txt', bytes: 26, path: join('states', 'files', 'report.txt') });
    // The session's own copy is still readable until the session closes.
    expect(await h.ok('browser_files', { sessionId: s.sessionId, action: 'read', fileId })).toMatchObject({
      text: 'Quarterly report\nall good\n',
    });
    await h.ok('browser_session_close', { sessionId: s.sessionId });
    expect(existsSync(join(h.mesh.config.dataDir, 'sessions', s.sessionId))).toBe(false);
    expect(readFileSync(join(h.mesh.config.dataDir, kept.path), 'utf8')).toBe('Quarterly report\nall good\n');
  });

  test('keeps a hostile-named download sanitized, inside the kept folder', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/files/download') });
    const fileId = await download(s, 'Hostile name');
    const { kept } = await h.ok<{ kept: Kept }>('browser_files', {
      sessionId: s.sessionId,
      action: 'keep',
      fileId,
    });
    expect(kept.name).not.toMatch(/[/\\\u202e]|^\./);
    expect(kept.path).toBe(join('states', 'files', kept.name));
    expect(readdirSync(keptFolder()).sort()).toEqual(['report.txt', kept.name].sort());
    expect(existsSync(join(h.mesh.config.dataDir, '.ssh'))).toBe(false);
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('refuses past the kept-file count and the shared byte total, writing nothing', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/files/download') });
    const fileId = await download(s, 'Text report');
    // Two files are kept already (the tests above): a third is over maxSavedStates.
    expect(await h.err('browser_files', { sessionId: s.sessionId, action: 'keep', fileId })).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      details: { field: 'maxSavedStates', limit: 2 },
    });
    rmSync(join(keptFolder(), 'report.txt'));
    // 4,096 bytes next to the kept hostile file (10 bytes) and report (26) would pass 4,100.
    const big = await download(s, 'Four kilobytes');
    const before = readdirSync(keptFolder()).sort();
    expect(
      await h.err('browser_files', { sessionId: s.sessionId, action: 'keep', fileId: big }),
    ).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { field: 'maxStateTotalBytes', limit: 4100 } });
    expect(readdirSync(keptFolder()).sort()).toEqual(before);
    // The session keeps working, and a file that fits is kept.
    expect(await h.ok('browser_files', { sessionId: s.sessionId, action: 'keep', fileId })).toMatchObject({
      kept: { name: 'report.txt' },
    });
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('counts kept files against the saved-state total when saving a state', async () => {
    for (const name of readdirSync(keptFolder())) rmSync(join(keptFolder(), name));
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/files/download') });
    const fileId = await download(s, 'Four kilobytes');
    expect(await h.ok('browser_files', { sessionId: s.sessionId, action: 'keep', fileId })).toMatchObject({
      kept: { bytes: 4096 },
    });
    // 4,096 kept bytes leave too little of the 4,100-byte total for a saved state.
    expect(await h.err('browser_state_save', { sessionId: s.sessionId, stateId: 'first' })).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      details: { field: 'maxStateTotalBytes' },
    });
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('refuses unknown, removed and unfinished files, and a kept folder that is a symlink', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/files/download') });
    const fileId = await download(s, 'Text report');
    await h.ok('browser_files', { sessionId: s.sessionId, action: 'remove', fileId });
    expect(await h.err('browser_files', { sessionId: s.sessionId, action: 'keep', fileId })).toMatchObject({
      code: 'FILE_NOT_FOUND',
    });
    expect(await h.err('browser_files', { sessionId: s.sessionId, action: 'keep' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'fileId' },
    });
    // A kept folder replaced by a link to elsewhere is refused, never followed.
    const elsewhere = mkdtempSync(join(tmpdir(), 'bm-elsewhere-'));
    rmSync(keptFolder(), { recursive: true });
    symlinkSync(elsewhere, keptFolder());
    const again = await download(s, 'Text report');
    expect(
      await h.err('browser_files', { sessionId: s.sessionId, action: 'keep', fileId: again }),
    ).toMatchObject({ code: 'PERSISTENCE_DISABLED' });
    expect(readdirSync(elsewhere)).toEqual([]);
    rmSync(keptFolder());
    mkdirSync(keptFolder(), { mode: 0o700 });
    await h.ok('browser_session_close', { sessionId: s.sessionId });
  });

  test('is PERSISTENCE_DISABLED when saved state is off', async () => {
    const off = await McpHarness.start({ tools: ['core', 'files'], persistence: false });
    try {
      const s = await off.session();
      await off.ok('browser_navigate', { ...s, url: site.url('/files/download') });
      const result = await off.ok<{ downloads?: Array<{ downloadId: string }> }>('browser_click', {
        ...s,
        locator: { role: 'link', name: 'Text report' },
      });
      const fileId = result.downloads?.[0]?.downloadId;
      expect(
        await off.err('browser_files', { sessionId: s.sessionId, action: 'keep', fileId }),
      ).toMatchObject({ code: 'PERSISTENCE_DISABLED' });
    } finally {
      await off.close();
    }
  });
});
