import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';

let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer();
});
afterAll(async () => {
  await site?.close();
});

describe('browser_evaluate (opt-in evaluate profile)', () => {
  it('is not published by default', async () => {
    const h = await McpHarness.start();
    try {
      const { tools } = await h.client.listTools();
      expect(tools.map((t) => t.name)).not.toContain('browser_evaluate');
      const refused = await h
        .call('browser_evaluate', { sessionId: 's', pageId: 'p', script: '1' })
        .catch((e: Error) => e);
      expect(refused).toBeInstanceOf(Error);
    } finally {
      await h.close();
    }
  });

  it('runs page JavaScript with --tools core,evaluate, bounded, with safe errors', async () => {
    const h = await McpHarness.start({ tools: ['core', 'evaluate'] });
    try {
      const s = await h.session();
      await h.ok('browser_navigate', { ...s, url: site.url('/title?t=Evaluated') });
      expect(await h.ok('browser_evaluate', { ...s, script: 'document.title' })).toMatchObject({
        value: 'Evaluated',
        type: 'string',
      });
      expect(
        await h.ok('browser_evaluate', { ...s, script: 'Promise.resolve({ a: [1, 2] })' }),
      ).toMatchObject({ value: { a: [1, 2] } });
      const big = await h.ok<{ truncated: boolean; value: string }>('browser_evaluate', {
        ...s,
        script: "'x'.repeat(100000)",
      });
      expect(big.truncated).toBe(true);
      const thrown = await h.err('browser_evaluate', {
        ...s,
        script: "throw new Error('secret-in-message')",
      });
      expect(thrown.code).toBe('SCRIPT_ERROR');
      expect(thrown.message).not.toContain('secret-in-message');
      expect(await h.ok('browser_get_title', s)).toMatchObject({ title: 'Evaluated' });
    } finally {
      await h.close();
    }
  });
});
