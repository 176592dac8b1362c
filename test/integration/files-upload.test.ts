import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../src/config/load.js';
import { createLogger } from '../../src/engine/logger.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };
const base = mkdtempSync(join(tmpdir(), 'bm-upload-'));
const root = join(base, 'allowed');
const outside = join(base, 'outside');
mkdirSync(root);
mkdirSync(outside);
writeFileSync(join(root, 'notes.txt'), 'notes from disk');
writeFileSync(join(outside, 'id_ed25519'), 'PRIVATE KEY MATERIAL');
symlinkSync(join(outside, 'id_ed25519'), join(root, 'innocent.txt'));

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files'],
  uploadRoots: [root],
  uploadMaxBytes: 1000,
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const content = (name: string, text: string) => ({ name, mimeType: 'text/plain', base64: b64(text) });

/** The lines the fixture page printed for the files it received (frame = the iframe's own output). */
async function received(lines: number, frame = false): Promise<string[]> {
  return h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', async ({ page }) => {
    const target = frame ? page.page.frames()[1] : page.page.mainFrame();
    if (!target) throw new Error('no frame');
    const id = frame ? '#frame-out' : '#out';
    await target.waitForFunction(
      ([sel, n]) =>
        (document.querySelector(sel as string)?.textContent ?? '').trim().split('\n').length >= (n as number),
      [id, lines],
      { timeout: 5000 },
    );
    return ((await target.textContent(id)) ?? '').trim().split('\n');
  });
}

async function openUploads(): Promise<void> {
  await h.ok('browser_navigate', { ...s, url: site.url('/files/upload') });
}

describe('browser_upload', () => {
  test('sets one file by content on a plain input', async () => {
    await openUploads();
    const result = await h.ok('browser_upload', {
      ...s,
      locator: { label: 'Single file' },
      files: [content('hello.txt', 'hello world')],
    });
    expect(result).toMatchObject({ completed: true, files: 1, via: 'input' });
    expect(await received(1)).toEqual(['single: hello.txt 11 text/plain hello world']);
  });

  test('sets several files on a multiple input, and refuses several on a single one', async () => {
    await openUploads();
    await h.ok('browser_upload', {
      ...s,
      locator: { label: 'Many files' },
      files: [content('a.txt', 'A'), content('b.csv', 'x,y')],
    });
    expect((await received(2)).sort()).toEqual([
      'many: a.txt 1 text/plain A',
      'many: b.csv 3 text/plain x,y',
    ]);
    const error = await h.err('browser_upload', {
      ...s,
      locator: { label: 'Single file' },
      files: [content('a.txt', 'A'), content('b.txt', 'B')],
    });
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'files' } });
  });

  test('answers the file chooser a button opens, and a click-to-choose drop zone', async () => {
    await openUploads();
    const button = await h.ok('browser_upload', {
      ...s,
      locator: { role: 'button', name: 'Choose a file' },
      files: [content('chosen.txt', 'chosen')],
    });
    expect(button).toMatchObject({ via: 'chooser', files: 1 });
    await h.ok('browser_upload', {
      ...s,
      locator: { role: 'button', name: 'Drop or click to add files' },
      files: [content('z1.txt', '1'), content('z2.txt', '2')],
    });
    const lines = await received(3);
    expect(lines).toContain('chooser-input: chosen.txt 6 text/plain chosen');
    expect(lines).toEqual(
      expect.arrayContaining(['zone-input: z1.txt 1 text/plain 1', 'zone-input: z2.txt 1 text/plain 2']),
    );
  });

  test('drops files on a zone that opens no chooser', async () => {
    await openUploads();
    const result = await h.ok('browser_upload', {
      ...s,
      locator: { role: 'region', name: 'Drop only' },
      files: [content('dropped.txt', 'drop')],
    });
    expect(result).toMatchObject({ via: 'drop' });
    expect(await received(1)).toEqual(['drop-only: dropped.txt 4 text/plain drop']);
  });

  test('reaches a file input inside an iframe', async () => {
    await openUploads();
    await h.ok('browser_upload', {
      ...s,
      locator: { label: 'Framed file', frame: { kind: 'iframe', chain: [{ css: 'iframe' }] } },
      files: [content('framed.txt', 'in frame')],
    });
    expect(await received(1, true)).toEqual(['framed: framed.txt 8 text/plain in frame']);
  });

  test('uploads a file by path under a configured root', async () => {
    await openUploads();
    await h.ok('browser_upload', {
      ...s,
      locator: { label: 'Single file' },
      files: [{ path: join(root, 'notes.txt') }],
    });
    expect(await received(1)).toEqual(['single: notes.txt 15 text/plain notes from disk']);
  });

  test('refuses paths outside the roots, symlinks pointing out, traversal, relative and oversize', async () => {
    await openUploads();
    const target = { ...s, locator: { label: 'Single file' } };
    for (const path of [
      join(outside, 'id_ed25519'),
      join(root, 'innocent.txt'),
      join(root, '..', 'outside', 'id_ed25519'),
    ]) {
      const error = await h.err('browser_upload', { ...target, files: [{ path }] });
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'files.0.path' } });
      expect(JSON.stringify(error)).not.toContain('id_ed25519');
      expect(JSON.stringify(error)).toContain('BROWSERMESH_UPLOAD_ROOTS');
    }
    expect(await h.err('browser_upload', { ...target, files: [{ path: 'notes.txt' }] })).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(
      await h.err('browser_upload', { ...target, files: [{ path: join(root, 'missing.txt') }] }),
    ).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const big = await h.err('browser_upload', { ...target, files: [content('big.bin', 'x'.repeat(1001))] });
    expect(big).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { field: 'files.0.base64' } });
    expect(
      await h.err('browser_upload', { ...target, files: [{ name: 'x', base64: '!!notbase64' }] }),
    ).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'files.0.base64' },
    });
    // Nothing reached the page, and the session still works.
    await h.ok('browser_upload', { ...target, files: [content('ok.txt', 'ok')] });
    expect(await received(1)).toEqual(['single: ok.txt 2 text/plain ok']);
  });
});

describe('MCP roots', () => {
  test('accepts a path under a root the client declares, and nothing else', async () => {
    const declared = join(base, 'declared');
    mkdirSync(declared);
    writeFileSync(join(declared, 'client.txt'), 'from client root');
    const server = createMcpServer({ mesh: h.mesh, logger: createLogger('silent') });
    const client = new Client({ name: 'roots-client', version: '1.0.0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: pathToFileURL(declared).href, name: 'work' }],
    }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    try {
      await openUploads();
      const call = (path: string) =>
        client.callTool({
          name: 'browser_upload',
          arguments: { ...s, locator: { label: 'Single file' }, files: [{ path }] },
        });
      expect((await call(join(declared, 'client.txt'))).isError).toBeFalsy();
      expect(await received(1)).toEqual(['single: client.txt 16 text/plain from client root']);
      expect((await call(join(outside, 'id_ed25519'))).isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
