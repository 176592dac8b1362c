import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
// A new user's first minutes, measured (docs/first-run.md). Run from a folder where the packed tarball
// is installed:  node /path/to/browsermesh/scripts/first-run.mjs
// Traffic goes to the project's fixture site on 127.0.0.1 only.
const { startFixtureServer } = await import(new URL('../test/fixtures/server.mjs', import.meta.url));
const site = await startFixtureServer();
const t0 = performance.now();
const ms = () => Math.round(performance.now() - t0);
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['node_modules/browsermesh/dist/cli/main.js'],
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    BROWSERMESH_DATA_DIR: process.cwd() + '/data',
    BROWSERMESH_LOG_LEVEL: 'warn',
  },
});
const client = new Client({ name: 'first-run', version: '1' });
await client.connect(transport);
const init = ms();
const { tools } = await client.listTools();
const list = ms();
const created = await client.callTool({ name: 'browser_session_create', arguments: {} });
const { session, initialPage } = created.structuredContent;
const nav = await client.callTool({
  name: 'browser_navigate',
  arguments: { sessionId: session.sessionId, pageId: initialPage.pageId, url: site.url('/shop/') },
});
const navigated = ms();
console.log(
  JSON.stringify({
    initializeMs: init,
    toolsListMs: list,
    tools: tools.length,
    firstNavigationMs: navigated,
    title: nav.structuredContent?.title,
    isError: nav.isError ?? false,
  }),
);
await client.close();
await site.close();
