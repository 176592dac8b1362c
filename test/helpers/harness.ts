import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { defaultConfig, type Config } from '../../src/config/load.js';
import { createLogger } from '../../src/engine/logger.js';
import { createBrowserMesh } from '../../src/create-mesh.js';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import { createMcpServer } from '../../src/mcp/server.js';

/** Debian's Chromium on CI and dev machines; override with BROWSERMESH_TEST_CHROMIUM. */
export const CHROMIUM = process.env.BROWSERMESH_TEST_CHROMIUM ?? '/usr/bin/chromium';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return defaultConfig({
    executablePath: CHROMIUM,
    dataDir: mkdtempSync(join(tmpdir(), 'bm-data-')),
    timeoutMs: 20_000,
    ...overrides,
  });
}

export interface ErrorPayload {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  operationId?: string;
  canRetry: boolean;
}

/**
 * A real BrowserMesh behind a real MCP server, reached by the official SDK client over the SDK's
 * in-memory transport: fast, and honest about the protocol.
 */
export class McpHarness {
  private constructor(
    readonly mesh: BrowserMesh,
    readonly client: Client,
  ) {}

  static async start(overrides: Partial<Config> = {}, mesh?: BrowserMesh): Promise<McpHarness> {
    const runtime =
      mesh ?? createBrowserMesh({ config: testConfig(overrides), logger: createLogger('silent') });
    const server = createMcpServer({ mesh: runtime, logger: createLogger('silent') });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'browsermesh-tests', version: '1.0.0' });
    await client.connect(clientTransport);
    return new McpHarness(runtime, client);
  }

  call(
    name: string,
    args: Record<string, unknown> = {},
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<CallToolResult> {
    return this.client.callTool({ name, arguments: args }, undefined, options) as Promise<CallToolResult>;
  }

  /** Calls a tool that must succeed; returns its structuredContent. */
  async ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const result = await this.call(name, args);
    if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
    return result.structuredContent as T;
  }

  /** Calls a tool that must fail; returns the structured error. */
  async err(name: string, args: Record<string, unknown> = {}): Promise<ErrorPayload> {
    const result = await this.call(name, args);
    if (!result.isError) throw new Error(`${name} unexpectedly succeeded: ${textOf(result).slice(0, 300)}`);
    return (JSON.parse(textOf(result)) as { error: ErrorPayload }).error;
  }

  /** Creates a session; returns its id and initial page id. */
  async session(args: Record<string, unknown> = {}): Promise<{ sessionId: string; pageId: string }> {
    const created = await this.ok<{ session: { sessionId: string }; initialPage: { pageId: string } }>(
      'browser_session_create',
      args,
    );
    return { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.mesh.shutdown();
  }
}

export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}
