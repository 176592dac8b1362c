import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { waitFor } from './support/wait.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

// A 5 MiB per-session file quota let 280–390 MB of one download land in the temp folder,
// because the quota was only applied once the download had finished. The download must be stopped
// while it lands. Everything here is on 127.0.0.1.

const QUOTA = 5 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 0x41);
const TOTAL_CHUNKS = 400;

interface Stream {
  sentChunks: number;
  closedEarly: boolean;
  ended: boolean;
}
const streams: Stream[] = [];

function streamHuge(req: IncomingMessage, res: ServerResponse): void {
  const stream: Stream = { sentChunks: 0, closedEarly: false, ended: false };
  streams.push(stream);
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-disposition': 'attachment; filename="huge.bin"',
  });
  res.on('close', () => {
    if (!stream.ended) stream.closedEarly = true;
  });
  const pump = (): void => {
    while (stream.sentChunks < TOTAL_CHUNKS && !res.destroyed) {
      stream.sentChunks++;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    if (res.destroyed) return;
    stream.ended = true;
    res.end();
  };
  pump();
  req.on('error', () => undefined);
}

interface FileRow {
  fileId: string;
  name: string;
  state: string;
  bytes: number;
}

let site: FixtureServer;
let h: McpHarness;

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files'],
  sessionFileQuotaBytes: QUOTA,
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  site.route('/quota/huge', streamHuge);
  site.route('/quota/page', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<a href="/quota/huge">Huge file</a> <a href="/files/dl/text">Small</a>');
  });
  h = harness;
});

async function files(sessionId: string): Promise<FileRow[]> {
  return (await h.ok<{ files: FileRow[] }>('browser_files', { sessionId })).files;
}

describe('the per-session file quota during a download', () => {
  test('stops a download in progress once it passes the quota, removes it, and the session keeps working', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/quota/page') });
    await h.ok('browser_click', { ...s, locator: { role: 'link', name: 'Huge file' } });

    await waitFor(
      async () => (await files(s.sessionId)).some((f) => f.name === 'huge.bin' && f.state === 'failed'),
      60_000,
      'the huge download to be refused',
    );
    await waitFor(
      () => streams.length === 1 && (streams[0]?.closedEarly || streams[0]?.ended) === true,
      60_000,
      'the stream to end',
    );
    const stream = streams[0];
    // The browser hung up long before the body was sent: the download was cancelled while it landed.
    expect(stream?.ended).toBe(false);
    expect(stream?.closedEarly).toBe(true);
    expect(stream?.sentChunks).toBeLessThan(TOTAL_CHUNKS);

    const folder = join(h.mesh.config.dataDir, 'sessions', s.sessionId);
    const kept = existsSync(folder)
      ? readdirSync(folder).filter((name) => statSync(join(folder, name)).size > 0)
      : [];
    expect(kept).toEqual([]);

    // The session and its quota still work: a small download afterwards lands.
    const click = await h.ok<{ downloads?: Array<{ state: string; errorCode?: string }> }>('browser_click', {
      ...s,
      locator: { role: 'link', name: 'Small' },
    });
    expect(click.downloads?.[0]?.state).toBe('completed');
  });

  test('reports LIMIT_EXCEEDED on the refused download', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/quota/page') });
    const click = await h.ok<{ downloads?: Array<{ name: string; state: string; errorCode?: string }> }>(
      'browser_click',
      { ...s, locator: { role: 'link', name: 'Huge file' } },
    );
    const reported = click.downloads?.find((note) => note.name === 'huge.bin');
    // The cap refuses within milliseconds of the quota, inside the click's settle window for downloads.
    expect(reported).toMatchObject({ state: 'failed', errorCode: 'LIMIT_EXCEEDED' });
  });
});
