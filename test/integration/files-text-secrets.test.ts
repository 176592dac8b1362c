/**
 * A text download holding a secret, read a few bytes at a time (browser_files read with offset and
 * maxBytes), rebuilt the secret: each slice was redacted only at its ends. A text file is now scanned
 * whole, like a binary one, and any read of one that holds a secret form (raw, JSON, JS-quoted,
 * percent, base64, …) is refused (NOT_SUPPORTED, reason holds_secret); a clean text file reads as
 * before. Real Chromium downloading from the loopback fixture.
 */
import type { Config } from '../../src/config/load.js';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

const SECRET = "it's-CANARYC-9x";
const FILES: Record<string, string> = {
  'raw.txt': `id,token\n1,${SECRET}\n2,other\n`,
  'spec.js': `await page.getByRole('button', { name: 'Revoke ${SECRET.replace(/'/g, "\\'")}' }).click();\n`,
  'form.txt': `user=me&pw=${encodeURIComponent(SECRET)}&x=1\n`,
  'clean.txt': 'nothing to hide here, just ordinary text\n',
};

let h: McpHarness;
let s: { sessionId: string; pageId: string };

const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files'],
  secrets: { TOKEN: SECRET },
}));

test.beforeAll(async ({ site, harness }) => {
  for (const [name, text] of Object.entries(FILES)) {
    site.route(`/tsec/${name}`, (_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/plain; charset=utf-8',
        'content-disposition': `attachment; filename="${name}"`,
      });
      res.end(text);
    });
  }
  site.route('/tsec/page', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!doctype html><title>text files</title>${Object.keys(FILES)
        .map((name) => `<a href="/tsec/${name}">${name}</a>`)
        .join(' ')}`,
    );
  });
  h = harness;
  s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/tsec/page') });
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

describe('text file reads and secrets', () => {
  test.each(['raw.txt', 'spec.js', 'form.txt'])(
    'no slice of %s, which holds a secret form, comes back',
    async (name) => {
      const fileId = await download(name);
      const size = Buffer.byteLength(FILES[name] ?? '');
      let rebuilt = '';
      for (let offset = 0; offset < size; offset += 3) {
        const read = await h.call('browser_files', {
          sessionId: s.sessionId,
          action: 'read',
          fileId,
          offset,
          maxBytes: 3,
        });
        const body = JSON.stringify(read);
        if (!read.isError) {
          rebuilt += (read.structuredContent as { text?: string } | undefined)?.text ?? '';
          continue;
        }
        expect(body).not.toContain('CANARY');
        const error = await h.err('browser_files', {
          sessionId: s.sessionId,
          action: 'read',
          fileId,
          offset,
          maxBytes: 3,
        });
        expect(error.code).toBe('NOT_SUPPORTED');
        expect(error.details).toMatchObject({ field: 'fileId', reason: 'holds_secret' });
      }
      expect(rebuilt).not.toContain('CANARY');
      // The whole file in one read is refused the same way.
      const whole = await h.err('browser_files', { sessionId: s.sessionId, action: 'read', fileId });
      expect(whole.code).toBe('NOT_SUPPORTED');
      // The session keeps working: the file is still listed.
      const list = await h.ok<{ files: Array<{ fileId: string }> }>('browser_files', {
        sessionId: s.sessionId,
      });
      expect(list.files.map((f) => f.fileId)).toContain(fileId);
    },
  );

  test('reads a clean text file by slices as before', async () => {
    const fileId = await download('clean.txt');
    const size = Buffer.byteLength(FILES['clean.txt'] ?? '');
    let rebuilt = '';
    for (let offset = 0; offset < size; offset += 4) {
      const read = await h.ok<{ text?: string }>('browser_files', {
        sessionId: s.sessionId,
        action: 'read',
        fileId,
        offset,
        maxBytes: 4,
      });
      rebuilt += read.text ?? '';
    }
    expect(rebuilt).toBe(FILES['clean.txt']);
  });
});
