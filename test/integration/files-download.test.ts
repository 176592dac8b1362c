import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

interface Note {
  downloadId: string;
  name: string;
  bytes: number;
  mimeType: string | null;
  state: string;
  errorCode?: string;
}

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files', 'code'],
  sessionFileQuotaBytes: 100_000,
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/files/download') });
});

const folder = (sessionId: string): string => join(h.mesh.config.dataDir, 'sessions', sessionId);

async function clickLink(name: string): Promise<Note[]> {
  const result = await h.ok<{ downloads?: Note[] }>('browser_click', {
    ...s,
    locator: { role: 'link', name },
  });
  return result.downloads ?? [];
}

describe('downloads', () => {
  test('reports a download on the click that caused it, lists it and reads text back inline', async () => {
    const [note, ...rest] = await clickLink('Text report');
    expect(rest).toEqual([]);
    expect(note).toMatchObject({ name: 'report.txt', bytes: 26, mimeType: 'text/plain', state: 'completed' });
    const list = await h.ok<{ files: Array<{ fileId: string }> }>('browser_files', {
      sessionId: s.sessionId,
    });
    expect(list.files.map((f) => f.fileId)).toContain(note?.downloadId);
    const read = await h.ok('browser_files', {
      sessionId: s.sessionId,
      action: 'read',
      fileId: note?.downloadId,
    });
    expect(read).toMatchObject({ text: 'Quarterly report\nall good\n', truncated: false, totalBytes: 26 });
  });

  test('reads binary back as an embedded resource, bounded, with an offset to read on', async () => {
    const [note] = await clickLink('Binary data');
    expect(note).toMatchObject({ name: 'data.bin', bytes: 256, state: 'completed' });
    const args = { sessionId: s.sessionId, action: 'read', fileId: note?.downloadId, maxBytes: 100 };
    const result = (await h.call('browser_files', args)) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ truncated: true, nextOffset: 100, totalBytes: 256 });
    const resource = result.content.find((c) => c.type === 'resource');
    expect(resource?.type === 'resource' && 'blob' in resource.resource).toBe(true);
    const blob = resource?.type === 'resource' && 'blob' in resource.resource ? resource.resource.blob : '';
    expect([...Buffer.from(blob, 'base64')]).toEqual([...Array(100).keys()]);
    const tail = (await h.call('browser_files', { ...args, offset: 250 })) as CallToolResult;
    expect(tail.structuredContent).toMatchObject({ truncated: false });
  });

  test('keeps a hostile suggested name inside the session folder, sanitized', async () => {
    const [note] = await clickLink('Hostile name');
    expect(note?.state).toBe('completed');
    expect(note?.name).not.toMatch(/[/\\\u202e]|^\./);
    expect(readdirSync(folder(s.sessionId))).toContain(note?.name);
    expect(existsSync(join(h.mesh.config.dataDir, '.ssh'))).toBe(false);
  });

  test('reports a page-made (blob) download from a button', async () => {
    const result = await h.ok<{ downloads?: Note[] }>('browser_click', {
      ...s,
      locator: { role: 'button', name: 'Export CSV' },
    });
    expect(result.downloads?.[0]).toMatchObject({ name: 'export.csv', bytes: 8, mimeType: 'text/csv' });
  });

  test('refuses a download over the session quota and deletes it', async () => {
    const [note] = await clickLink('Large file');
    expect(note).toMatchObject({ state: 'failed', errorCode: 'LIMIT_EXCEEDED', bytes: 0 });
    expect(readdirSync(folder(s.sessionId))).not.toContain(note?.name);
    // The session keeps working.
    const [small] = await clickLink('Four kilobytes');
    expect(small).toMatchObject({ state: 'completed', bytes: 4096 });
  });

  test('reports downloads a code-mode script caused', async () => {
    const result = await h.ok<{ downloads?: Note[] }>('browser_run', {
      ...s,
      code: "await page.getByRole('link', { name: 'Text report' }).click(); return 1;",
    });
    expect(result.downloads?.[0]).toMatchObject({ name: 'report-2.txt', state: 'completed' });
  });

  test('removes a file; unknown ids and a missing fileId are refused by code', async () => {
    const [note] = await clickLink('Text report');
    const id = note?.downloadId;
    expect(
      await h.ok('browser_files', { sessionId: s.sessionId, action: 'remove', fileId: id }),
    ).toMatchObject({
      removed: true,
    });
    const list = await h.ok<{ files: Array<{ fileId: string }> }>('browser_files', {
      sessionId: s.sessionId,
    });
    expect(list.files.map((f) => f.fileId)).not.toContain(id);
    expect(
      await h.err('browser_files', { sessionId: s.sessionId, action: 'read', fileId: id }),
    ).toMatchObject({
      code: 'FILE_NOT_FOUND',
    });
    expect(
      await h.err('browser_files', { sessionId: s.sessionId, action: 'read', fileId: 'f_nope' }),
    ).toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect(await h.err('browser_files', { sessionId: s.sessionId, action: 'read' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'fileId' },
    });
  });

  test('saves the page as PDF, reported like a download', async () => {
    const result = await h.ok<{ downloads: Note[] }>('browser_pdf', s);
    const [pdf] = result.downloads;
    expect(pdf).toMatchObject({ name: 'Downloads.pdf', mimeType: 'application/pdf', state: 'completed' });
    const read = (await h.call('browser_files', {
      sessionId: s.sessionId,
      action: 'read',
      fileId: pdf?.downloadId,
      maxBytes: 5,
    })) as CallToolResult;
    const resource = read.content.find((c) => c.type === 'resource');
    const blob = resource?.type === 'resource' && 'blob' in resource.resource ? resource.resource.blob : '';
    expect(Buffer.from(blob, 'base64').toString()).toBe('%PDF-');
  });

  test("code mode's page.pdf() saves a PDF reported like a download; a bad option is refused", async () => {
    const result = await h.ok<{ value: Note; downloads?: Note[] }>('browser_run', {
      ...s,
      code: "return await page.pdf({ format: 'Letter', landscape: true });",
    });
    expect(result.value).toMatchObject({ mimeType: 'application/pdf', state: 'completed' });
    expect(result.downloads).toEqual([
      expect.objectContaining({ downloadId: result.value.downloadId, mimeType: 'application/pdf' }),
    ]);
    const head = (await h.call('browser_files', {
      sessionId: s.sessionId,
      action: 'read',
      fileId: result.value.downloadId,
      maxBytes: 5,
    })) as CallToolResult;
    const resource = head.content.find((c) => c.type === 'resource');
    const blob = resource?.type === 'resource' && 'blob' in resource.resource ? resource.resource.blob : '';
    expect(Buffer.from(blob, 'base64').toString()).toBe('%PDF-');
    const bad = await h.err('browser_run', { ...s, code: "return await page.pdf({ path: '/etc/x.pdf' });" });
    expect(bad.code).toBe('INVALID_ARGUMENT');
    expect(bad.message).toContain('path');
    expect(JSON.stringify(bad)).not.toContain('/etc/x.pdf');
  });

  test('removes the session folder when the session closes', async () => {
    const other = await h.session();
    await h.ok('browser_navigate', { ...other, url: site.url('/files/download') });
    await h.ok('browser_click', { ...other, locator: { role: 'link', name: 'Text report' } });
    expect(existsSync(folder(other.sessionId))).toBe(true);
    await h.ok('browser_session_close', { sessionId: other.sessionId });
    expect(existsSync(folder(other.sessionId))).toBe(false);
  });
});
