/**
 * Redaction by knowledge, not by guess. The agent's own words come back where
 * they are the point of an error (a script's exception, a bad key name), an ordinary request body
 * field named `key` is shown, and what is known to be secret (a --secrets value, a credential field)
 * still never is. Real Chromium against the loopback fixture.
 */
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

const SECRET = 'Zq9-Known-Secret-77';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  secrets: { API: SECRET },
  tools: ['core', 'observability', 'evaluate'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
  site.route('/precision/post', (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  site.route('/precision', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>precision</title><p id="out">pending</p><script>
fetch('/precision/post', { method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ key: 'value', password: 'pw-typed-1234', api_key: 'k-5678', note: '${SECRET}' }) })
  .then(() => { document.getElementById('out').textContent = 'posted'; });
</script>`);
  });
});

describe('precise redaction', () => {
  test('browser_evaluate reports the script’s own exception', async () => {
    const error = await h.err('browser_evaluate', { ...s, script: 'nonExistentVariable' });
    expect(error.message).toContain('nonExistentVariable is not defined');
  });

  test('browser_press names the bad key; a --secrets value sent as a key is still not shown', async () => {
    const bad = await h.err('browser_press', { ...s, key: 'XXX' });
    expect(bad.message).toContain('"XXX"');
    const secret = await h.err('browser_press', { ...s, key: SECRET });
    expect(JSON.stringify(secret)).not.toContain('Known-Secret');
    expect(secret.details).toMatchObject({ field: 'key' });
  });

  test('a request body shows `key` as it is and hides credential fields and known secrets', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/precision') });
    await h.ok('browser_wait', { ...s, text: 'posted' });
    const list = await h.ok<{ events: Array<{ method?: string; requestId?: string }> }>('browser_observe', {
      ...s,
      source: 'network',
    });
    const post = list.events.find((event) => event.method === 'POST');
    const detail = await h.ok<{ request: { requestBody: string } }>('browser_observe', {
      ...s,
      source: 'network',
      requestId: post?.requestId,
    });
    const body = detail.request.requestBody;
    expect(body).toContain('"key":"value"');
    expect(body).not.toContain('pw-typed-1234');
    expect(body).not.toContain('k-5678');
    expect(body).not.toContain('Known-Secret');
    expect(body).toContain('{{secret:API}}');
  });
});
