/**
 * One MCP contract, run unchanged over every transport (stdio and Streamable HTTP through the built
 * CLI): what a client can count on whatever the wire. Each transport's test file connects an SDK
 * `Client` to a fresh server and calls `defineContract`.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import type { FixtureServer } from '../fixtures/server.mjs';

type Created = { session: { sessionId: string }; initialPage: { pageId: string } };
interface ToolError {
  code: string;
  message: string;
  canRetry: boolean;
  operationId?: string;
}

export function defineContract(getClient: () => Client, getSite: () => FixtureServer): void {
  const call = (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> =>
    getClient().callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const ok = async <T>(name: string, args: Record<string, unknown> = {}): Promise<T> => {
    const result = await call(name, args);
    if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
    return result.structuredContent as T;
  };
  const err = async (name: string, args: Record<string, unknown> = {}): Promise<ToolError> => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    return (JSON.parse(textOf(result)) as { error: ToolError }).error;
  };

  it('introduces itself with addressing instructions and fully described tools', async () => {
    const client = getClient();
    expect(client.getServerVersion()?.name).toBe('browsermesh');
    expect(client.getInstructions()).toContain('sessionId');
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'browser_runtime_info',
      'browser_session_create',
      'browser_navigate',
      'browser_session_close',
    ]) {
      expect(names).toContain(name);
    }
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations, tool.name).toBeTypeOf('object');
    }
  });

  it('reports runtime info without launching a browser (warm-up off)', async () => {
    const info = await ok<{ browser: { provider: string; state: string }; sessions: { live: number } }>(
      'browser_runtime_info',
    );
    expect(info.browser).toMatchObject({ provider: 'local', state: 'idle' });
    expect(info.sessions.live).toBe(0);
  });

  it('runs addressed sessions: create, navigate, read, placement, close twice', async () => {
    const site = getSite();
    const a = await ok<Created>('browser_session_create', { name: 'contract-a' });
    const b = await ok<Created>('browser_session_create', { name: 'contract-b' });
    const addrA = { sessionId: a.session.sessionId, pageId: a.initialPage.pageId };

    const nav = await ok<{ url: string; title: string; operationId: string }>('browser_navigate', {
      ...addrA,
      url: site.url('/shop/'),
    });
    expect(nav).toMatchObject({ url: site.url('/shop/'), title: 'Mesh Shop' });
    expect(nav.operationId).toBeTypeOf('string');
    expect(await ok<{ title: string }>('browser_get_title', addrA)).toMatchObject({ title: 'Mesh Shop' });

    const got = await ok<{ session: { placement: unknown; state: string } }>('browser_session_get', {
      sessionId: addrA.sessionId,
    });
    expect(got.session).toMatchObject({ state: 'ready', placement: { provider: 'local' } });
    const listed = await ok<{ sessions: Array<{ sessionId: string }> }>('browser_session_list');
    expect(listed.sessions.map((s) => s.sessionId)).toEqual(
      expect.arrayContaining([a.session.sessionId, b.session.sessionId]),
    );

    // A page id of one session is refused in another.
    const crossed = await err('browser_get_title', { sessionId: b.session.sessionId, pageId: addrA.pageId });
    expect(crossed.code).toBe('PAGE_NOT_FOUND');

    expect(
      await ok<{ alreadyClosed: boolean }>('browser_session_close', { sessionId: addrA.sessionId }),
    ).toMatchObject({ alreadyClosed: false });
    expect(
      await ok<{ alreadyClosed: boolean }>('browser_session_close', { sessionId: addrA.sessionId }),
    ).toMatchObject({ alreadyClosed: true });
    expect((await err('browser_get_title', addrA)).code).toBe('SESSION_CLOSED');
    await ok('browser_session_close', { sessionId: b.session.sessionId });
  });

  it('answers mistakes with structured, safe errors', async () => {
    const unknown = await err('browser_session_get', { sessionId: 's_doesNotExist' });
    expect(unknown).toMatchObject({ code: 'SESSION_NOT_FOUND', canRetry: false });
    expect(unknown.operationId).toBeTypeOf('string');
    const invalid = await err('browser_navigate', { sessionId: 's_x', pageId: 'p_x', url: 42 });
    expect(invalid.code).toBe('INVALID_ARGUMENT');
    for (const error of [unknown, invalid]) expect(error.message).not.toMatch(/\n\s+at /);
    await expect(getClient().callTool({ name: 'browser_no_such_tool', arguments: {} })).rejects.toThrow();
  });
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}
