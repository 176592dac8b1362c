import { mkdtempSync, writeFileSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../src/config/load.js';
import { createLogger } from '../../src/engine/logger.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { within } from './support/wait.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

// A client that declares the roots capability but never answers roots/list got
// INTERNAL_ERROR on every upload by path. It must get a stable code within a bounded time, and the
// session must keep working.

const folder = mkdtempSync(join(tmpdir(), 'bm-roots-silent-'));
writeFileSync(join(folder, 'client.txt'), 'from client root');

let site: FixtureServer;
let h: McpHarness;
let client: Client;

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  const server = createMcpServer({ mesh: h.mesh, logger: createLogger('silent') });
  client = new Client({ name: 'silent-roots', version: '1.0.0' }, { capabilities: { roots: {} } });
  // Declares roots, never answers.
  client.setRequestHandler(ListRootsRequestSchema, () => new Promise<never>(() => undefined));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  await client.connect(a);
});
test.afterAll(async () => {
  await client?.close();
  await fs.rm(folder, { recursive: true, force: true });
});

function errorOf(result: CallToolResult): { code: string; details?: Record<string, unknown> } {
  const first = result.content[0];
  if (result.isError !== true || first?.type !== 'text') throw new Error('expected an error result');
  return (JSON.parse(first.text) as { error: { code: string; details?: Record<string, unknown> } }).error;
}

describe('a client that declares roots but never answers roots/list', () => {
  test('gets NOT_SUPPORTED (roots_unanswered) on an upload by path, and uploads by content still work', async () => {
    const created = (await client.callTool({
      name: 'browser_session_create',
      arguments: {},
    })) as CallToolResult;
    const made = created.structuredContent as {
      session: { sessionId: string };
      initialPage: { pageId: string };
    };
    const s = { sessionId: made.session.sessionId, pageId: made.initialPage.pageId };
    await client.callTool({ name: 'browser_navigate', arguments: { ...s, url: site.url('/files/upload') } });
    const call = client.callTool({
      name: 'browser_upload',
      arguments: { ...s, locator: { label: 'Single file' }, files: [{ path: join(folder, 'client.txt') }] },
    }) as Promise<CallToolResult>;
    const result = await within(call, 30_000);
    expect(result).not.toBe('pending');
    if (result === 'pending') return;
    const error = errorOf(result);
    expect(error.code).toBe('NOT_SUPPORTED');
    expect(error.details).toMatchObject({ reason: 'roots_unanswered', field: 'files' });

    const byContent = (await client.callTool({
      name: 'browser_upload',
      arguments: {
        ...s,
        locator: { label: 'Single file' },
        files: [{ name: 'ok.txt', mimeType: 'text/plain', base64: Buffer.from('ok').toString('base64') }],
      },
    })) as CallToolResult;
    expect(byContent.isError).toBeFalsy();
  });
});
