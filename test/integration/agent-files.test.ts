/**
 * The file and mouse tools through AgentBrowser: browser_upload (by ref; content, or a path under the
 * uploadRoots option), downloads reported on the action that caused them, browser_files (list, read,
 * remove) and browser_mouse by coordinates, all over the MCP tools' own operations. Every result is
 * checked against the tool's output schema (ToolDriver.call).
 */
import {
  closeSync,
  readdirSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  symlinkSync,
  writeFileSync,
  ftruncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { testAgentBrowser, ToolDriver, until } from './support/agent.js';

interface Note {
  downloadId: string;
  name: string;
  bytes: number;
  mimeType: string | null;
  state: string;
}

let site: FixtureServer;
let browser: AgentBrowser;
let t: ToolDriver;
const base = mkdtempSync(join(tmpdir(), 'bm-agent-files-'));
const dataDir = join(base, 'data');
const root = join(base, 'allowed');
const outside = join(base, 'outside');
mkdirSync(root);
mkdirSync(outside);
writeFileSync(join(root, 'notes.txt'), 'notes from disk');
writeFileSync(join(outside, 'id_ed25519'), 'PRIVATE KEY MATERIAL');
symlinkSync(join(outside, 'id_ed25519'), join(root, 'innocent.txt'));
// 51 MiB without writing them: over the 50 MiB upload bound.
const huge = openSync(join(root, 'huge.bin'), 'w');
ftruncateSync(huge, 51 * 1024 * 1024);
closeSync(huge);

// The file's site and AgentBrowser (with its upload root and data dir) come from the shared fixtures.
const test = fixtureTest.extend('agentOptions', { scope: 'file' }, () => ({ uploadRoots: [root], dataDir }));

test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  browser = agentBrowser;
  t = new ToolDriver(browser, { threadId: 'files' });
});

const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** The lines the upload page printed for the files it received. */
async function received(lines: number): Promise<string[]> {
  let out: string[] = [];
  await until(async () => {
    out = (await t.text('out')).trim().split('\n').filter(Boolean);
    return out.length >= lines;
  });
  return out;
}

describe('AgentBrowser files and pointer tools', () => {
  test('publishes browser_upload, browser_files and browser_mouse; excludeTools removes them', () => {
    expect(Object.keys(browser.getTools())).toEqual(
      expect.arrayContaining(['browser_upload', 'browser_files', 'browser_mouse']),
    );
    const lean = testAgentBrowser({ excludeTools: ['browser_upload', 'browser_files', 'browser_mouse'] });
    expect(Object.keys(lean.getTools())).not.toEqual(expect.arrayContaining(['browser_upload']));
    expect(lean.getTools().browser_files).toBeUndefined();
    expect(lean.getTools().browser_mouse).toBeUndefined();
    expect(() => testAgentBrowser({ uploadRoots: ['relative/dir'] })).toThrow(/uploadRoots/);
  });

  test('browser_upload gives files by content and by a path under uploadRoots, by ref', async () => {
    await t.ok('browser_goto', { url: site.url('/files/upload') });
    const many = await t.ref('file', 'Many files');
    const result = await t.ok('browser_upload', {
      ref: many,
      files: [
        { name: 'a.txt', mimeType: 'text/plain', base64: b64('alpha') },
        { path: join(root, 'notes.txt') },
      ],
    });
    expect(result).toMatchObject({ completed: true, files: 2, via: 'input' });
    expect(await received(2)).toEqual([
      'many: a.txt 5 text/plain alpha',
      'many: notes.txt 15 text/plain notes from disk',
    ]);
    // A button that opens the file chooser gets them through the chooser.
    const chooser = await t.ok('browser_upload', {
      ref: await t.ref('button', 'Choose a file'),
      files: [{ name: 'c.txt', base64: b64('chosen') }],
    });
    expect(chooser).toMatchObject({ files: 1, via: 'chooser' });
    expect((await received(3))[2]).toBe('chooser-input: c.txt 6 text/plain chosen');
  });

  test('browser_upload refuses a path outside the roots, a symlink out, traversal and an oversize file', async () => {
    await t.ok('browser_goto', { url: site.url('/files/upload') });
    const single = await t.ref('file', 'Single file');
    for (const path of [
      join(outside, 'id_ed25519'),
      join(root, 'innocent.txt'),
      join(root, '..', 'outside', 'id_ed25519'),
    ]) {
      const error = await t.fails('browser_upload', { ref: single, files: [{ path }] });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(JSON.stringify(error)).not.toContain('id_ed25519');
      expect(error.recoveryHint).toContain('uploadRoots');
    }
    expect(
      (await t.fails('browser_upload', { ref: single, files: [{ path: join(root, 'huge.bin') }] })).code,
    ).toBe('LIMIT_EXCEEDED');
    // Nothing reached the page, and the thread still works.
    await t.ok('browser_upload', { ref: single, files: [{ name: 'ok.txt', base64: b64('ok') }] });
    expect(await received(1)).toEqual(['single: ok.txt 2 text/plain ok']);
  });

  test('reports a download on the click that caused it; browser_files lists, reads and removes it', async () => {
    await t.ok('browser_goto', { url: site.url('/files/download') });
    const clicked = await t.ok<{ downloads?: Note[] }>('browser_click', {
      ref: await t.ref('link', 'Text report'),
    });
    const [note] = clicked.downloads ?? [];
    expect(note).toMatchObject({ name: 'report.txt', bytes: 26, mimeType: 'text/plain', state: 'completed' });
    const id = note?.downloadId ?? '';
    expect(existsSync(join(dataDir, 'sessions'))).toBe(true);
    const list = await t.ok<{ files: Array<{ fileId: string }> }>('browser_files', {});
    expect(list.files.map((f) => f.fileId)).toContain(id);
    expect(await t.ok('browser_files', { action: 'read', fileId: id })).toMatchObject({
      text: 'Quarterly report\nall good\n',
      truncated: false,
    });
    const bin = await t.ok<{ downloads?: Note[] }>('browser_click', {
      ref: await t.ref('link', 'Binary data'),
    });
    const binId = bin.downloads?.[0]?.downloadId;
    const slice = await t.ok<{ base64: string; nextOffset: number }>('browser_files', {
      action: 'read',
      fileId: binId,
      maxBytes: 10,
    });
    expect([...Buffer.from(slice.base64, 'base64')]).toEqual([...Array(10).keys()]);
    expect(slice.nextOffset).toBe(10);
    expect(await t.ok('browser_files', { action: 'remove', fileId: id })).toEqual({ removed: true });
    expect((await t.fails('browser_files', { action: 'read', fileId: id })).code).toBe('FILE_NOT_FOUND');
    expect((await t.fails('browser_files', { action: 'read' })).code).toBe('INVALID_ARGUMENT');
  });

  test('reports downloads a browser_run script caused', async () => {
    await t.ok('browser_goto', { url: site.url('/files/download') });
    const result = await t.ok<{ downloads?: Note[] }>('browser_run', {
      code: "await page.getByRole('button', { name: 'Export CSV' }).click(); return 1;",
    });
    expect(result.downloads?.[0]).toMatchObject({ name: 'export.csv', bytes: 8, state: 'completed' });
  });

  test('browser_mouse clicks and drags by coordinates and says what it hit; refuses points outside', async () => {
    await t.ok('browser_goto', { url: site.url('/files/pointer') });
    const click = await t.ok('browser_mouse', { action: 'click', x: 50, y: 60, modifiers: ['Shift'] });
    expect(click).toMatchObject({ completed: true, hit: 'canvas#board' });
    await until(async () => (await t.text('log')).includes('click 50,60 0 1 shift'));
    await t.ok('browser_mouse', { action: 'drag', x: 10, y: 10, toX: 200, toY: 150, steps: 5 });
    await until(async () => (await t.text('log')).includes('mouseup 200,150 0'));
    const far = await t.fails('browser_mouse', { action: 'click', x: 5000, y: 10 });
    expect(far.code).toBe('INVALID_ARGUMENT');
    expect((await t.fails('browser_mouse', { action: 'click', x: 10 })).code).toBe('INVALID_ARGUMENT');
  });

  test('saves a PDF through code mode (page.pdf), reported in downloads and read with browser_files', async () => {
    await t.ok('browser_goto', { url: site.url('/files/download') });
    const run = await t.ok<{ value: Note; downloads?: Note[] }>('browser_run', {
      code: 'return await page.pdf();',
    });
    expect(run.downloads?.[0]).toMatchObject({
      downloadId: run.value.downloadId,
      mimeType: 'application/pdf',
    });
    const head = await t.ok<{ base64: string }>('browser_files', {
      action: 'read',
      fileId: run.value.downloadId,
      maxBytes: 5,
    });
    expect(Buffer.from(head.base64, 'base64').toString()).toBe('%PDF-');
  });

  test('resizes the open tab through code mode (page.setViewportSize), as the docs say', async () => {
    await t.ok('browser_goto', { url: site.url('/files/pointer') });
    await t.ok('browser_run', { code: 'await page.setViewportSize({ width: 500, height: 400 }); return 1;' });
    await until(async () => (await t.text('viewport')) === '500x400');
  });

  test("removes a thread's downloads when the thread closes", async () => {
    const other = new ToolDriver(browser, { threadId: 'files-closing' });
    const before = new Set(readdirSync(join(dataDir, 'sessions')));
    await other.ok('browser_goto', { url: site.url('/files/download') });
    await other.ok('browser_click', { ref: await other.ref('link', 'Text report') });
    const added = readdirSync(join(dataDir, 'sessions')).filter((name) => !before.has(name));
    expect(added).toHaveLength(1);
    await browser.closeThread('files-closing');
    expect(existsSync(join(dataDir, 'sessions', added[0] ?? ''))).toBe(false);
  });
});
