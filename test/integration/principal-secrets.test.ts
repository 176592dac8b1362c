/**
 * Secrets per principal over HTTP. A `--tokens-file` with two lines, each naming its own
 * secrets file, and a server-wide `--secrets`: each principal fills its own secrets by name (its own
 * value winning over the server-wide one of the same name), its outputs are redacted by its own
 * values, and asking for another principal's secret is the unknown-secret error, word for word.
 * Official MCP SDK client over Streamable HTTP, real Chromium, loopback fixture only.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { loadConfig, type Config } from '../../src/config/load.js';
import { createDashboard } from '../../src/dashboard/handler.js';
import { createLogger } from '../../src/engine/logger.js';
import type { RunningHttpServer } from '../../src/mcp/http.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { readZip } from './support/zip.js';
import { connectHttp, err, ok, rawRequest, type HttpClient } from './support/mcp-http.js';
import { readSessionFile } from './support/session-files.js';

type Created = { session: { sessionId: string }; initialPage: { pageId: string } };
type At = { sessionId: string; pageId: string };

const OPERATOR_TOKEN = 'operator-token-0123456789abcdef';
const ALICE_TOKEN = 'alice-token-0123456789abcdef';
const BOB_TOKEN = 'bob-token-0123456789abcdefgh';
const ALICE_PW = 'alice-Sup3r"secret';
const BOB_PW = 'bob-0ther-secret';
const SHARED_PW = 'server-wide-pw-value';
const SHARED_API = 'server-wide-api-value';

let site: FixtureServer;
let server: RunningHttpServer;
let alice: HttpClient;
let bob: HttpClient;
/** What the landing page received, by the marker the form carried. */
const landed = new Map<string, string>();

// The file's site, mesh and HTTP server come from the shared fixtures, set up from the tokens file
// and secrets files the CLI would read; its two clients are its own.
const test = fixtureTest
  /** The server's settings as `--http --tokens-file --secrets` give them. */
  .extend('loaded', { scope: 'file' }, (): Config => {
    const dir = mkdtempSync(join(tmpdir(), 'bm-principal-secrets-'));
    writeFileSync(join(dir, 'alice.env'), `PW=${ALICE_PW}\nALICE_ONLY=alice-only-value\n`);
    writeFileSync(join(dir, 'bob.env'), `PW=${BOB_PW}\n`);
    writeFileSync(join(dir, 'server.env'), `PW=${SHARED_PW}\nAPI=${SHARED_API}\n`);
    writeFileSync(join(dir, 'tokens.txt'), `alice ${ALICE_TOKEN} alice.env\nbob ${BOB_TOKEN} ./bob.env\n`);
    return loadConfig(
      ['--http', '--tokens-file', join(dir, 'tokens.txt'), '--secrets', join(dir, 'server.env')],
      {},
    ).config;
  })
  .extend('meshConfig', { scope: 'file' }, ({ loaded }) => ({
    secrets: loaded.secrets,
    principalSecrets: loaded.principalSecrets,
    tools: ['core', 'code', 'watch'] as Config['tools'],
  }))
  .extend('httpOptions', { scope: 'file' }, ({ loaded, mesh }) => ({
    token: OPERATOR_TOKEN,
    tokens: loaded.httpTokens,
    dashboard: createDashboard({ mesh, logger: createLogger('silent'), takeover: false }),
  }));

test.beforeAll(async ({ site: fileSite, httpServer }) => {
  site = fileSite;
  server = httpServer;
  site.route('/ps/form', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>form</title>
<form action="/ps/landing" method="post"><input id="who" name="who" aria-label="Who">
<input id="v" name="v" aria-label="Value"><button id="go">Send</button></form>`);
  });
  site.route('/ps/title', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>blank</title>
<input id="t" aria-label="Title" oninput="document.title = this.value">`);
  });
  site.route('/ps/landing', (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      landed.set(form.get('who') ?? '', form.get('v') ?? '');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>landed</title><p>landed</p>');
    });
  });
  alice = await connectHttp(server.url, { token: ALICE_TOKEN });
  bob = await connectHttp(server.url, { token: BOB_TOKEN });
});
test.afterAll(async () => {
  await alice?.client.close();
  await bob?.client.close();
});

async function openForm(who: HttpClient): Promise<At> {
  const created = await ok<Created>(who.client, 'browser_session_create');
  const at = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
  await ok(who.client, 'browser_navigate', { ...at, url: site.url('/ps/form') });
  return at;
}

/** Fills the form with `value` (a reference or plain text) and submits it; returns what landed. */
async function submit(who: HttpClient, at: At, marker: string, value: string): Promise<string | undefined> {
  await ok(who.client, 'browser_fill', { ...at, locator: { css: '#who' }, value: marker });
  await ok(who.client, 'browser_fill', { ...at, locator: { css: '#v' }, value });
  await ok(who.client, 'browser_click', { ...at, locator: { css: '#go' } });
  await expect.poll(() => landed.has(marker), { timeout: 20_000 }).toBe(true);
  return landed.get(marker);
}

async function snapshotText(who: HttpClient, at: At): Promise<string> {
  const result = (await who.client.callTool({ name: 'browser_snapshot', arguments: at })) as CallToolResult;
  expect(result.isError ?? false).toBe(false);
  return JSON.stringify(result);
}

describe('secrets per principal over HTTP', () => {
  test("fills a principal's own secret by name, its value winning, redacted in its snapshot", async () => {
    const at = await openForm(alice);
    await ok(alice.client, 'browser_fill', { ...at, locator: { css: '#v' }, value: '{{secret:ALICE_ONLY}}' });
    const snap = await snapshotText(alice, at);
    expect(snap).toContain('{{secret:ALICE_ONLY}}');
    expect(snap).not.toContain('alice-only-value');
    const read = await ok<{ value: unknown }>(alice.client, 'browser_run', {
      ...at,
      code: `return await page.inputValue('#v');`,
    });
    expect(JSON.stringify(read)).not.toContain('alice-only-value');
    // PW is in both the server-wide file and Alice's: hers is the one typed.
    expect(await submit(alice, at, 'alice-pw', '{{secret:PW}}')).toBe(ALICE_PW);
  });

  test('gives each principal its own value for a shared name, and the server-wide secrets too', async () => {
    const at = await openForm(bob);
    expect(await submit(bob, at, 'bob-pw', '{{secret:PW}}')).toBe(BOB_PW);
    await ok(bob.client, 'browser_navigate', { ...at, url: site.url('/ps/form') });
    expect(await submit(bob, at, 'bob-api', '{{secret:API}}')).toBe(SHARED_API);
  });

  test("answers another principal's secret name exactly like an unknown one", async () => {
    const at = await openForm(bob);
    const unknown = await err(bob.client, 'browser_fill', {
      ...at,
      locator: { css: '#v' },
      value: '{{secret:NO_SUCH_SECRET}}',
    });
    const others = await err(bob.client, 'browser_fill', {
      ...at,
      locator: { css: '#v' },
      value: '{{secret:ALICE_ONLY}}',
    });
    const typed = await err(bob.client, 'browser_type', {
      ...at,
      locator: { css: '#v' },
      text: '{{secret:ALICE_ONLY}}',
    });
    expect(others.code).toBe('INVALID_ARGUMENT');
    const shape = ({ code, message }: { code: string; message: string }) => ({ code, message });
    expect(shape(others)).toEqual(shape(unknown));
    expect(JSON.stringify([others, typed])).not.toContain('alice-only-value');
    expect(JSON.stringify([others, typed])).not.toContain('alice');
    // The session keeps working.
    await ok(bob.client, 'browser_fill', { ...at, locator: { css: '#v' }, value: 'still here' });
  });

  test("does not redact another principal's values in a principal's outputs (no oracle for them)", async () => {
    const at = await openForm(bob);
    await ok(bob.client, 'browser_fill', { ...at, locator: { css: '#v' }, value: 'alice-only-value' });
    const snap = await snapshotText(bob, at);
    expect(snap).toContain('alice-only-value');
    expect(snap).not.toContain('{{secret:ALICE_ONLY}}');
  });

  test("redacts the dashboard by the viewer's secrets: its own for a principal, everyone's for the operator", async () => {
    const a = await openForm(alice);
    const b = await openForm(bob);
    for (const [who, at, value] of [
      [alice, a, '{{secret:ALICE_ONLY}}'],
      [bob, b, 'alice-only-value'],
    ] as const) {
      await ok(who.client, 'browser_navigate', { ...at, url: site.url('/ps/title') });
      await ok(who.client, 'browser_fill', { ...at, locator: { css: '#t' }, value });
    }
    const titleIn = async (token: string, at: At): Promise<string | undefined> => {
      const url = server.url.replace(/\/mcp$/, '/dashboard/api/state');
      const state = await rawRequest(url, { method: 'GET', headers: { Authorization: `Bearer ${token}` } });
      const body = JSON.parse(state.body) as {
        sessions: Array<{ sessionId: string; pages: Array<{ pageId: string; title: string }> }>;
      };
      const session = body.sessions.find((s) => s.sessionId === at.sessionId);
      return session?.pages.find((p) => p.pageId === at.pageId)?.title;
    };
    await expect.poll(() => titleIn(ALICE_TOKEN, a), { timeout: 20_000 }).toBe('{{secret:ALICE_ONLY}}');
    // Bob typed the string himself: his view is not an oracle for Alice's secrets.
    await expect.poll(() => titleIn(BOB_TOKEN, b), { timeout: 20_000 }).toBe('alice-only-value');
    await expect.poll(() => titleIn(OPERATOR_TOKEN, a), { timeout: 20_000 }).toBe('{{secret:ALICE_ONLY}}');
    await expect.poll(() => titleIn(OPERATOR_TOKEN, b), { timeout: 20_000 }).toBe('{{secret:ALICE_ONLY}}');
  });

  test("scrubs a principal's own secrets from a trace started with the session", async () => {
    const created = await ok<Created>(alice.client, 'browser_session_create', {
      contextSettings: { trace: true },
    });
    const at = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
    await ok(alice.client, 'browser_navigate', { ...at, url: site.url('/ps/form') });
    await ok(alice.client, 'browser_fill', { ...at, locator: { css: '#v' }, value: '{{secret:ALICE_ONLY}}' });
    await ok(alice.client, 'browser_fill', { ...at, locator: { css: '#who' }, value: '{{secret:PW}}' });
    // The fills are CDP input, not Playwright actions: the trace holds the typed values in the DOM
    // snapshot Playwright takes before its next traced call (this navigation).
    await ok(alice.client, 'browser_navigate', { ...at, url: site.url('/ps/form') });
    const stopped = await ok<{ file: { fileId: string; bytes: number } }>(alice.client, 'browser_trace', {
      sessionId: at.sessionId,
      action: 'stop',
    });
    // A zip still holding a secret would be refused here (holds_secret).
    const entries = readZip(
      await readSessionFile(
        (args) => alice.client.callTool({ name: 'browser_files', arguments: args }),
        at.sessionId,
        stopped.file.fileId,
        stopped.file.bytes,
      ),
    );
    const all = [...entries.values()].map((data) => data.toString('latin1')).join('\n');
    expect(all).toContain('{{secret:ALICE_ONLY}}');
    for (const value of ['alice-only-value', ALICE_PW, SHARED_PW]) expect(all).not.toContain(value);
  });
});
