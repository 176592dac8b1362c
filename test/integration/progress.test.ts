import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from './support/fixtures.js';
import { McpHarness } from '../helpers/harness.js';

/**
 * MCP `notifications/progress` for long calls, through the official client's `onprogress`
 * (which sends a progressToken): the browser start, each browser_run step, and a heartbeat while a
 * slow navigation runs. Progress rises with every notification and never carries page content.
 */

async function callWithProgress(
  h: McpHarness,
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
  test('announces the browser start on the first session', async ({ harness: h }) => {
    const { ok, updates } = await callWithProgress(h, 'browser_session_create', {});
    expect(ok).toBe(true);
    expect(updates[0]?.message).toBe('starting the browser');
    expectRising(updates);
  });

  test('reports each browser_run step, for actions and for a script', async ({ site, harness: h }) => {
    const s = await h.session();
    const actions = [
      { action: 'goto', url: site.url('/quiet') },
      { action: 'snapshot' },
      { action: 'goto', url: site.url('/quiet') },
    ];
    const batch = await callWithProgress(h, 'browser_run', { ...s, actions });
    expect(batch.ok).toBe(true);
    expect(batch.updates.map((u) => u.message)).toEqual(
      expect.arrayContaining(['step 1/3: goto', 'step 2/3: snapshot', 'step 3/3: goto']),
    );
    expectRising(batch.updates);
    const script = await callWithProgress(h, 'browser_run', {
      ...s,
      code: 'await page.title(); await page.title(); return 1',
    });
    expect(script.ok).toBe(true);
    expect(script.updates.map((u) => u.message)).toEqual(
      expect.arrayContaining(['step 1: title', 'step 2: title']),
    );
  });

  test('sends a heartbeat while a slow navigation runs', async ({ site, harness: h }) => {
    const s = await h.session();
    const { ok, updates } = await callWithProgress(h, 'browser_navigate', {
      ...s,
      url: site.url('/slow?ms=2500'),
    });
    expect(ok).toBe(true);
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates[0]?.message).toMatch(/^browser_navigate: still running \(\d+ s\)$/);
    expectRising(updates);
  });

  test('sends nothing for a fast call', async ({ harness: h }) => {
    const s = await h.session();
    const { updates } = await callWithProgress(h, 'browser_get_url', s);
    expect(updates).toEqual([]);
  });
});
