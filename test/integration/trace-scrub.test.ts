/**
 * A Playwright trace saved by browser_trace held every filled value (a `--secrets` value
 * and a password typed as is), the cookies and credential headers of every request. The trace is
 * read back as the agent gets it (browser_files, in pages) and every entry of the zip is searched.
 * Real Chromium against the loopback fixture.
 */
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { readZip } from './support/zip.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { readSessionFile } from './support/session-files.js';

const SECRET = 'Sup3r-Secret-Value';
const TYPED = 'typedPassw0rd!';
const COOKIE = 'cookieValue4711';
const BEARER = 'bearerToken0815';
const NEEDLES = [
  SECRET,
  encodeURIComponent(SECRET),
  Buffer.from(SECRET).toString('base64').slice(0, 16),
  TYPED,
  encodeURIComponent(TYPED),
  COOKIE,
  BEARER,
];

let site: FixtureServer;
let h: McpHarness;

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'watch'],
  secrets: { PW: SECRET },
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  site.route('/tr/login', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': `sid=${COOKIE}; Path=/` });
    res.end(`<!doctype html><title>login</title>
<form action="/tr/done" method="post"><input id="user" name="user" aria-label="User">
<input id="pw" name="pw" type="password" aria-label="Password"><button id="go">Log in</button></form>
<script>fetch('/tr/api', { headers: { authorization: 'Bearer ' + ${JSON.stringify(BEARER.split(''))}.join('') } });</script>`);
  });
  site.route('/tr/api', (_req, res) => {
    res.writeHead(204).end();
  });
  site.route('/tr/done', (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>done</title><p>welcome</p>');
    });
  });
});

describe('browser_trace scrubs what it recorded', () => {
  // The page builds its bearer token, so only the request's header carries it whole.
  test('keeps secrets, typed passwords, cookies and credential headers out of the saved zip', async () => {
    const s = await h.session();
    await h.ok('browser_trace', { sessionId: s.sessionId, action: 'start' });
    await h.ok('browser_navigate', { ...s, url: site.url('/tr/login') });
    await h.ok('browser_fill', { ...s, locator: { css: '#user' }, value: '{{secret:PW}}' });
    await h.ok('browser_fill', { ...s, locator: { css: '#pw' }, value: TYPED });
    await h.ok('browser_click', { ...s, locator: { css: '#go' } });
    await h.ok('browser_wait', { ...s, text: 'welcome' });
    const stopped = await h.ok<{ file: { fileId: string; bytes: number } }>('browser_trace', {
      sessionId: s.sessionId,
      action: 'stop',
    });
    const zip = await readSessionFile(
      (args) => h.call('browser_files', args),
      s.sessionId,
      stopped.file.fileId,
      stopped.file.bytes,
    );
    const entries = readZip(zip);
    // The trace still holds what it is for: the actions and the network log.
    const trace = entries.get('trace.trace')?.toString('utf8') ?? '';
    const network = entries.get('trace.network')?.toString('utf8') ?? '';
    expect(trace).toContain('browser_fill');
    expect(network).toContain('/tr/api');
    expect(network).toContain('{{secret:PW}}');
    const found: string[] = [];
    for (const [name, data] of entries) {
      for (const text of [data.toString('utf8'), data.toString('latin1')]) {
        for (const needle of NEEDLES) if (text.includes(needle)) found.push(`${name}: ${needle}`);
      }
    }
    expect(found).toEqual([]);
  }, 60_000);
});
