import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { workerStats } from '../../src/code-mode/worker-pool.js';
import { createBrowserMesh } from '../../src/create-mesh.js';
import { createLogger } from '../../src/engine/logger.js';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { testConfig } from '../helpers/harness.js';
import { waitFor } from './support/wait.js';

let mesh: BrowserMesh | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  await mesh?.shutdown();
  client = mesh = undefined;
});

async function connect(warmUp: boolean, tools: string[] = ['core']): Promise<Client> {
  mesh = createBrowserMesh({ config: testConfig({ tools: tools as never }), logger: createLogger('silent') });
  const server = createMcpServer({ mesh, logger: createLogger('silent'), warmUp });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'warm-up-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('warm-up after initialize', () => {
  it('launches the local Chromium in the background once the client lists the tools', async () => {
    await connect(true);
    await client?.listTools();
    // No session was asked for: the browser comes up on its own, and the first session shares it.
    await waitFor(() => mesh?.runtimeInfo().browser.state === 'ready', 30_000, 'the warmed-up browser');
    const version = mesh?.runtimeInfo().browser.browserVersion;
    expect(version).toMatch(/\d+\./);
    const created = await client?.callTool({ name: 'browser_session_create', arguments: {} });
    expect(created?.isError).toBeFalsy();
    expect(mesh?.runtimeInfo().browser.browserVersion).toBe(version);
  });

  it('starts a sandbox worker once the launch ended when browser_run is published', async () => {
    const before = workerStats.started;
    const warmRunsBefore = workerStats.warmUpRuns;
    await connect(true, ['core', 'code']);
    await client?.listTools();
    // No call yet: the worker starts once Chromium's launch ended (not beside it, so the launch
    // has both cores), and is ready by the time the first navigation is.
    await waitFor(() => mesh?.runtimeInfo().browser.state === 'ready', 30_000, 'the warmed-up browser');
    await waitFor(() => workerStats.started > before, 30_000, 'a prewarmed sandbox worker');
    const created = await client?.callTool({ name: 'browser_session_create', arguments: {} });
    const { session, initialPage } = created?.structuredContent as {
      session: { sessionId: string };
      initialPage: { pageId: string };
    };
    // Left alone, the worker runs its throwaway scripts, so the first real one is not the first its
    // QuickJS module and V8 see (first browser_run about as fast as the next).
    await waitFor(() => workerStats.warmUpRuns >= warmRunsBefore + 3, 30_000, 'the worker warm-up runs');
    const startedBefore = workerStats.started;
    const run = await client?.callTool({
      name: 'browser_run',
      arguments: { sessionId: session.sessionId, pageId: initialPage.pageId, code: 'return 6 * 7' },
    });
    expect(run?.structuredContent).toMatchObject({ value: 42 });
    // The first script ran on the prewarmed worker instead of starting its own.
    expect(workerStats.started).toBe(startedBefore);
  });

  it('does not start Chromium for a one-shot browser_runtime_info', async () => {
    await connect(true);
    const info = await client?.callTool({ name: 'browser_runtime_info', arguments: {} });
    expect(info?.structuredContent).toMatchObject({ browser: { state: 'idle' } });
    expect(mesh?.runtimeInfo().browser.state).toBe('idle');
  });

  it('launches nothing without warm-up (the library default)', async () => {
    await connect(false);
    await client?.listTools();
    expect(mesh?.runtimeInfo().browser.state).toBe('idle');
  });
});
