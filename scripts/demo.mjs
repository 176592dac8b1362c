#!/usr/bin/env node
// The newcomer's main job: the real BrowserMesh server over stdio, driven by the official MCP client,
// opens two isolated sessions on the project's own demo shop, logs in as a buyer and as an admin, and
// shows that nothing leaks between them. Prints a transcript with the size of every response.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startFixtureServer } from '../test/fixtures/server.mjs';

const cli = new URL('../dist/cli/main.js', import.meta.url).pathname;
const site = await startFixtureServer();
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli],
  env: { ...process.env, BROWSERMESH_LOG_LEVEL: process.env.BROWSERMESH_LOG_LEVEL ?? 'warn' },
  stderr: 'inherit',
});
const client = new Client({ name: 'browsermesh-demo', version: '1.0.0' });
let calls = 0;
let totalChars = 0;

const say = (line) => process.stdout.write(`${line}\n`);

async function call(label, name, args) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.find((c) => c.type === 'text')?.text ?? '';
  calls++;
  totalChars += text.length;
  const shown = ((result.isError ? 'ERROR ' : '') + text.replace(/\s+/g, ' ')).slice(0, 96);
  say(`${label.padEnd(8)} ${name.padEnd(24)} ${String(text.length).padStart(5)} chars  ${shown}`);
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return result.structuredContent;
}

async function login(label, page, user) {
  await call(label, 'browser_navigate', { ...page, url: site.url('/shop/login') });
  await call(label, 'browser_fill', { ...page, locator: { label: 'Username' }, value: user });
  await call(label, 'browser_fill', { ...page, locator: { label: 'Password' }, value: `${user}-pass` });
  await call(label, 'browser_click', { ...page, locator: { role: 'button', name: 'Sign in' } });
}

async function whoami(label, page) {
  await call(label, 'browser_navigate', { ...page, url: site.url('/shop/whoami') });
  const { text } = await call(label, 'browser_visible_text', page);
  return JSON.parse(text).user;
}

try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  say(`BrowserMesh demo — shop at ${site.origin}; the server publishes ${tools.length} tools\n`);
  const open = async (name) => {
    const created = await call(name, 'browser_session_create', { name, metadata: { role: name } });
    return { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
  };
  const [buyer, admin] = [await open('buyer'), await open('admin')];
  await Promise.all([login('buyer', buyer, 'buyer'), login('admin', admin, 'admin')]);

  const buyerUser = await whoami('buyer', buyer);
  const adminUser = await whoami('admin', admin);
  const guest = await open('guest');
  const guestUser = await whoami('guest', guest);
  const forbidden = await call('buyer', 'browser_navigate', {
    ...buyer,
    url: site.url('/shop/admin/orders'),
  });
  const allowed = await call('admin', 'browser_navigate', { ...admin, url: site.url('/shop/admin/orders') });
  for (const s of [buyer, admin, guest]) await call('-', 'browser_session_close', { sessionId: s.sessionId });

  say('');
  say(`buyer session is signed in as: ${buyerUser}`);
  say(`admin session is signed in as: ${adminUser}`);
  say(`a third, fresh session sees:   ${guestUser ?? 'nobody (no cookie leaked into it)'}`);
  say(`admin orders page: buyer gets HTTP ${forbidden.status}, admin gets HTTP ${allowed.status}`);
  const isolated =
    buyerUser === 'buyer' && adminUser === 'admin' && guestUser === null && forbidden.status === 403;
  say(
    `\n${isolated ? 'Isolation holds' : 'ISOLATION BROKEN'}: ${calls} tool calls, ${totalChars} response characters in total.`,
  );
  process.exitCode = isolated ? 0 : 1;
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => undefined);
  await site.close();
}
