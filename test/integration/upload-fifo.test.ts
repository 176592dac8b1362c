import { execFileSync } from 'node:child_process';
import { constants, mkdtempSync, openSync, closeSync, writeFileSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { within } from './support/wait.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

// A FIFO under an upload root hung browser_upload past its deadline (opening it for reading
// waits for a writer), and four of them took every libuv pool thread: the server's file and DNS
// work stalled. Non-regular files are refused before anything opens them.

const root = mkdtempSync(join(tmpdir(), 'bm-upload-fifo-'));
const fifos = [0, 1, 2, 3, 4].map((n) => join(root, `pipe-${n}.txt`));
for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
writeFileSync(join(root, 'notes.txt'), 'notes from disk');

let site: FixtureServer;
let h: McpHarness;

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files'],
  uploadRoots: [root],
  timeoutMs: 10_000,
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
});
test.afterAll(async () => {
  // On a build without the fix, opens blocked in the pool wait for a writer: give them one.
  for (const fifo of fifos) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waiting (the fixed behaviour): nothing to release.
    }
  }
  await fs.rm(root, { recursive: true, force: true });
});

describe('browser_upload of a FIFO under an upload root', () => {
  test('refuses each FIFO at once with INVALID_ARGUMENT, and file work goes on', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/files/upload') });
    const calls = fifos.map((fifo) =>
      h.err('browser_upload', { ...s, locator: { label: 'Single file' }, files: [{ path: fifo }] }),
    );
    // Far below the 10 s deadline the hang ran into; generous for a loaded machine.
    const errors = await within(Promise.all(calls), 8_000);
    expect(errors).not.toBe('pending');
    if (errors === 'pending') return;
    for (const error of errors) {
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details).toMatchObject({ field: 'files.0.path' });
      expect(error.message).not.toContain(root);
    }
    // The pool is free: a regular file still uploads, and plain file work answers.
    expect(await within(fs.readFile(join(root, 'notes.txt'), 'utf8'), 5_000)).toBe('notes from disk');
    const ok = await h.ok('browser_upload', {
      ...s,
      locator: { label: 'Single file' },
      files: [{ path: join(root, 'notes.txt') }],
    });
    expect(ok).toMatchObject({ completed: true, files: 1 });
  });
});
