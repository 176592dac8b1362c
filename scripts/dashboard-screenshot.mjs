#!/usr/bin/env node
// Generates docs/dashboard.png for the README: the built CLI serves MCP over HTTP with --dashboard,
// the official MCP client drives two sessions on the fixture shop, and a separate Chromium opens
// the dashboard (token in the URL fragment) and takes the screenshot. Run `npm run build` first.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium } from 'playwright-core';
import { startFixtureServer } from '../test/fixtures/server.mjs';

const out = new URL('../docs/dashboard.png', import.meta.url).pathname;
const cli = new URL('../dist/cli/main.js', import.meta.url).pathname;
const executablePath = process.env.BROWSERMESH_EXECUTABLE_PATH ?? '/usr/bin/chromium';
const token = randomBytes(24).toString('hex');
const site = await startFixtureServer();
const server = spawn(
  process.execPath,
  [cli, '--http', '--port', '0', '--dashboard', '--dashboard-takeover'],
  {
    env: {
      ...process.env,
      BROWSERMESH_HTTP_TOKEN: token,
      BROWSERMESH_LOG_LEVEL: 'warn',
      // HTTP mode blocks loopback by default; the fixture shop is on loopback.
      BROWSERMESH_BLOCK_PRIVATE_NETWORK: 'off',
      BROWSERMESH_EXECUTABLE_PATH: executablePath,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
const urls = await new Promise((resolve, reject) => {
  let text = '';
  server.stderr.on('data', (chunk) => {
    text += chunk;
    const mcp = /MCP over Streamable HTTP at (\S+)/.exec(text)?.[1];
    const dashboard = /dashboard at (\S+)/.exec(text)?.[1];
    if (mcp && dashboard) resolve({ mcp, dashboard });
  });
  server.once('exit', () => reject(new Error('the server exited')));
});

const client = new Client({ name: 'dashboard-screenshot', version: '1.0.0' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(urls.mcp), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }),
);
const call = async (name, args) => (await client.callTool({ name, arguments: args })).structuredContent;
const open = async (name, role) => {
  const result = await client.callTool({
    name: 'browser_session_create',
    arguments: { name, metadata: { role } },
  });
  if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 500));
  const created = result.structuredContent;
  return { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
};
const buyer = await open('buyer', 'buyer');
const admin = await open('admin', 'admin');
for (const [page, user] of [
  [buyer, 'buyer'],
  [admin, 'admin'],
]) {
  await call('browser_navigate', { ...page, url: site.url('/shop/login') });
  await call('browser_fill', { ...page, locator: { label: 'Username' }, value: user });
  await call('browser_fill', { ...page, locator: { label: 'Password' }, value: `${user}-pass` });
  await call('browser_click', { ...page, locator: { role: 'button', name: 'Sign in' } });
}
await call('browser_navigate', { ...buyer, url: site.url('/shop/') });
await call('browser_snapshot', { ...buyer, interactiveOnly: true });
await call('browser_click', { ...buyer, locator: { role: 'button', name: 'No such button' } });

const viewer = await chromium.launch({ executablePath });
const page = await viewer.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto(`${urls.dashboard}#token=${token}`);
await page.locator(`[data-session-id="${buyer.sessionId}"]`).click();
await page.waitForFunction(() => Number(document.querySelector('.live img')?.dataset.frameCount) >= 2);
await page.locator('#operations tr[data-tool="browser_click"]').first().waitFor();
await page.screenshot({ path: out });
process.stdout.write(`wrote ${out}\n`);

await viewer.close();
await client.close();
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
await site.close();
