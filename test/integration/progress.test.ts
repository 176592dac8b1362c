import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';

/**
 * MCP `notifications/progress` for long calls (issue 15), through the official client's `onprogress`
 * (which sends a progressToken): the browser start, each browser_run step, and a heartbeat while a
 * slow navigation runs. Progress rises with every notification and never carries page content.
 */

let site: FixtureServer;
let h: McpHarness;

beforeAll(async () => {
  site = await startFixtureServer();
  h = await McpHarness.start();
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

async function callWithProgress(
  name: string,
  args: Record<string, unknown>,
): Promise<{ ok: boolean; updates: Progress[] }> {
  const updates: Progress[] = [];
  const result = await h.client.callTool({ name, arguments: args }, CallToolResultSchema, {
    onprogress: (update) => updates.push(update),
  });
  return { ok: result.isError !== true, updates };
}

function expectRising(updates: Progress[]): void {
  updates.forEach((update, i) => expect(update.progress).toBe(i + 1));
}

describe('progress notifications', () => {
  it('announces the browser start on the first session', async () => {
    const { ok, updates } = await callWithProgress('browser_session_create', {});
    expect(ok).toBe(true);
    expect(updates[0]?.message).toBe('starting the browser');
    expectRising(updates);
  });

  it('reports each browser_run step, for actions and for a script', async () => {
    const s = await h.session();
    const actions = [
      { action: 'goto', url: site.url('/quiet') },
      { action: 'snapshot' },
      { action: 'goto', url: site.url('/quiet') },
    ];
    const batch = await callWithProgress('browser_run', { ...s, actions });
    expect(batch.ok).toBe(true);
    expect(batch.updates.map((u) => u.message)).toEqual(
      expect.arrayContaining(['step 1/3: goto', 'step 2/3: snapshot', 'step 3/3: goto']),
    );
    expectRising(batch.updates);
    const script = await callWithProgress('browser_run', {
      ...s,
      code: 'await page.title(); await page.title(); return 1',
    });
    expect(script.ok).toBe(true);
    expect(script.updates.map((u) => u.message)).toEqual(
      expect.arrayContaining(['step 1: title', 'step 2: title']),
    );
  });

  it('sends a heartbeat while a slow navigation runs', async () => {
    const s = await h.session();
    const { ok, updates } = await callWithProgress('browser_navigate', {
      ...s,
      url: site.url('/slow?ms=2500'),
    });
    expect(ok).toBe(true);
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates[0]?.message).toMatch(/^browser_navigate: still running \(\d+ s\)$/);
    expectRising(updates);
  });

  it('sends nothing for a fast call', async () => {
    const s = await h.session();
    const { updates } = await callWithProgress('browser_get_url', s);
    expect(updates).toEqual([]);
  });
});
