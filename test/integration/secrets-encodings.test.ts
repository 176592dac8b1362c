/**
 * A `--secrets` value never comes back, whatever spelling the path it took gave
 * it — a snapshot's escaping (a secret with `"` and `\`), a GET form's percent/form encoding in the
 * result URL, browser_get_url, the page list and observed URLs, a POST form's body, a `maxlength`
 * field that keeps the secret's head, and code mode reading a secret-filled field and transforming
 * the string. Real Chromium against the loopback fixture.
 */
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

const SECRET = 'hunter2 "Sup3r\\Secret" & 1+1';
const FRAGMENTS = ['Sup3r', 'unter2', 'hunter2+%22', 'hunter2%20%22', btoa('hunter2 "Sup3r').slice(0, 12)];

let site: FixtureServer;
let h: McpHarness;

function leaks(value: unknown): string[] {
  const text = JSON.stringify(value);
  return FRAGMENTS.filter((fragment) => text.includes(fragment));
}

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  secrets: { PW: SECRET },
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>secrets</title>${body}`);
  };
  site.route(
    '/sx/forms',
    html(`<form action="/sx/landing" method="get"><input id="q" name="q" aria-label="Query">
<button id="go">Search</button></form>
<form action="/sx/landing" method="post"><input id="p" name="p" aria-label="Posted">
<button id="send">Send</button></form>
<input id="short" maxlength="9" aria-label="Short">`),
  );
  site.route('/sx/landing', (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>landed</title><p>landed</p>');
    });
  });
});

describe('--secrets in every encoding', () => {
  test('a snapshot of a field holding a secret with quotes and backslashes shows the reference', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/sx/forms') });
    await h.ok('browser_fill', { ...s, locator: { css: '#q' }, value: '{{secret:PW}}' });
    const snap = await h.call('browser_snapshot', s);
    expect(leaks(snap)).toEqual([]);
    expect(textOf(snap)).toContain('{{secret:PW}}');
  });

  test('a GET form: result URL, browser_get_url, the page list and observed URLs', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/sx/forms') });
    await h.ok('browser_fill', { ...s, locator: { css: '#q' }, value: '{{secret:PW}}' });
    const clicked = await h.call('browser_click', { ...s, locator: { css: '#go' } });
    await h.ok('browser_wait', { ...s, text: 'landed' });
    const url = await h.call('browser_get_url', s);
    const pages = await h.call('browser_page_list', { sessionId: s.sessionId });
    const network = await h.call('browser_observe', { ...s, source: 'network' });
    for (const result of [clicked, url, pages, network]) expect(leaks(result)).toEqual([]);
    expect(JSON.stringify(url.structuredContent)).toContain('q={{secret:PW}}');
  });

  test('a POST form: the observed request body', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/sx/forms') });
    await h.ok('browser_fill', { ...s, locator: { css: '#p' }, value: '{{secret:PW}}' });
    await h.ok('browser_click', { ...s, locator: { css: '#send' } });
    await h.ok('browser_wait', { ...s, text: 'landed' });
    const list = await h.ok<{ events: Array<{ method?: string; requestId?: string }> }>('browser_observe', {
      ...s,
      source: 'network',
    });
    const post = list.events.find((event) => event.method === 'POST');
    const detail = await h.call('browser_observe', { ...s, source: 'network', requestId: post?.requestId });
    expect(leaks(detail)).toEqual([]);
    expect(JSON.stringify(detail.structuredContent)).toContain('p={{secret:PW}}');
  });

  test('a maxlength field keeps the head of the secret: masked in snapshots and code mode', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/sx/forms') });
    await h.ok('browser_fill', { ...s, locator: { css: '#short' }, value: '{{secret:PW}}' });
    const snap = await h.call('browser_snapshot', s);
    expect(JSON.stringify(snap)).not.toContain('hunter2 "');
    expect(leaks(snap)).toEqual([]);
    const read = await h.call('browser_run', { ...s, code: `return await page.inputValue('#short')` });
    expect(JSON.stringify(read)).not.toContain('hunter2');
  });

  test('code mode: a secret-filled field read and transformed comes back masked', async () => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/sx/forms') });
    await h.ok('browser_type', { ...s, locator: { css: '#p' }, text: '{{secret:PW}}' });
    await h.ok('browser_fill', { ...s, locator: { css: '#q' }, value: '{{secret:PW}}' });
    const read = await h.ok<{ value: unknown }>('browser_run', {
      ...s,
      code: `const a = await page.inputValue('#q'); const b = await page.locator('#p').inputValue();
             return { split: a.split(''), reversed: b.split('').reverse().join(''), codes: [...a].map((c) => c.charCodeAt(0)) };`,
    });
    const value = read.value as { split: string[]; reversed: string; codes: number[] };
    expect(value.split.join('')).not.toContain('hunter');
    expect(value.reversed).not.toContain('2retnuh');
    expect(String.fromCharCode(...value.codes)).not.toContain('hunter');
  });
});
