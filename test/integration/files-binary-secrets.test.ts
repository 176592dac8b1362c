/**
 * A binary file read (browser_files) came back unredacted, so a secret inside a download —
 * raw, base64, or compressed — reached the agent. A binary file holding a secret is now refused
 * (NOT_SUPPORTED, reason holds_secret), read from any offset; one without reads as before. Real
 * Chromium downloading from the loopback fixture.
 */
import { gzipSync } from 'node:zlib';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

const SECRET = 'Sup3r-Secret-Value';
const noise = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0xff, 0xfe]);
const FILES: Record<string, Buffer> = {
  'raw.bin': Buffer.concat([noise, Buffer.from(`password=${SECRET}`), noise]),
  'b64.bin': Buffer.concat([noise, Buffer.from(Buffer.from(`{"pw":"${SECRET}"}`).toString('base64')), noise]),
  'packed.gz': gzipSync(Buffer.from(`user=me&password=${SECRET}`)),
  'clean.bin': Buffer.concat([noise, gzipSync(Buffer.from('nothing secret')), noise]),
};

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files'],
  secrets: { PW: SECRET },
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  for (const [name, bytes] of Object.entries(FILES)) {
    site.route(`/bsec/${name}`, (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename="${name}"`,
      });
      res.end(bytes);
    });
  }
  site.route('/bsec/page', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!doctype html><title>files</title>${Object.keys(FILES)
        .map((name) => `<a href="/bsec/${name}">${name}</a>`)
        .join(' ')}`,
    );
  });
  h = harness;
  s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/bsec/page') });
});

async function download(name: string): Promise<string> {
  const clicked = await h.ok<{ downloads?: Array<{ downloadId: string; state: string }> }>('browser_click', {
    ...s,
    locator: { role: 'link', name },
  });
  const note = clicked.downloads?.[0];
  expect(note?.state).toBe('completed');
  return note?.downloadId ?? '';
}

describe('binary file reads and secrets', () => {
  test.each(['raw.bin', 'b64.bin', 'packed.gz'])(
    'refuses %s, which holds a secret, at any offset',
    async (name) => {
      const fileId = await download(name);
      for (const offset of [0, 12]) {
        const error = await h.err('browser_files', {
          sessionId: s.sessionId,
          action: 'read',
          fileId,
          offset,
          maxBytes: 8,
        });
        expect(error.code).toBe('NOT_SUPPORTED');
        expect(error.details).toMatchObject({ field: 'fileId', reason: 'holds_secret' });
      }
      // The session keeps working: the file is still listed.
      const list = await h.ok<{ files: Array<{ fileId: string }> }>('browser_files', {
        sessionId: s.sessionId,
      });
      expect(list.files.map((f) => f.fileId)).toContain(fileId);
    },
  );

  test('reads a binary file without a secret as before', async () => {
    const fileId = await download('clean.bin');
    const read = await h.call('browser_files', { sessionId: s.sessionId, action: 'read', fileId });
    expect(read.isError).toBeFalsy();
    const blob = (read.content as Array<{ type: string; resource?: { blob?: string } }>).find(
      (c) => c.type === 'resource',
    )?.resource?.blob;
    expect(Buffer.from(blob ?? '', 'base64').equals(FILES['clean.bin'] ?? Buffer.alloc(0))).toBe(true);
  });
});
