/**
 * The built CLI over stdio with --dashboard: the dashboard's URL (loopback, no token in it) is printed
 * to stderr and given by browser_runtime_info, it shows the session the MCP client created, stdout stays
 * the protocol's, and the token from BROWSERMESH_HTTP_TOKEN guards its data.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { baseEnv, CLI, waitFor } from './cli-helpers.js';

const TOKEN = 'e2e-dashboard-token-0123456789';

describe('the built CLI over stdio with --dashboard', () => {
  it('prints the loopback dashboard URL to stderr and serves the live sessions behind the token', async () => {
    const stderr = new PassThrough();
    let logs = '';
    stderr.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--dashboard'],
      env: baseEnv({ BROWSERMESH_HTTP_TOKEN: TOKEN }),
      stderr: 'pipe',
    });
    transport.stderr?.pipe(stderr);
    const client = new Client({ name: 'e2e-dashboard', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(await waitFor(() => /dashboard at http:\/\/127\.0\.0\.1:\d+\/dashboard\//.test(logs))).toBe(
        true,
      );
      const url = /dashboard at (\S+)/.exec(logs)![1]!;
      expect(logs).not.toContain(TOKEN);
      // The agent can learn the URL (a desktop client's user never sees stderr), never the token.
      const info = await client.callTool({ name: 'browser_runtime_info', arguments: {} });
      expect((info.structuredContent as { dashboard?: { url: string } }).dashboard).toEqual({
        url,
        token: 'http-token',
      });
      expect(JSON.stringify(info)).not.toContain(TOKEN);

      const created = (await client.callTool({ name: 'browser_session_create', arguments: { name: 'seen' } }))
        .structuredContent as { session: { sessionId: string } };
      expect((await fetch(`${url}api/state`)).status).toBe(401);
      const state = (await (
        await fetch(`${url}api/state`, { headers: { Authorization: `Bearer ${TOKEN}` } })
      ).json()) as { sessions: Array<{ sessionId: string; name: string }> };
      expect(state.sessions).toContainEqual(
        expect.objectContaining({ sessionId: created.session.sessionId, name: 'seen' }),
      );
      const shell = await fetch(url);
      expect(shell.status).toBe(200);
      expect(await shell.text()).toContain('app.js');
    } finally {
      await client.close();
    }
  });
});
