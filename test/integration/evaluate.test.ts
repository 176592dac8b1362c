import { describe, expect, test } from './support/fixtures.js';
import { McpHarness } from '../helpers/harness.js';

describe('browser_evaluate (opt-in evaluate profile)', () => {
  test('is not published by default', async () => {
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

  test('runs page JavaScript with --tools core,evaluate, bounded, with safe errors', async ({ site }) => {
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
      // The exception's own message, bounded, secrets redacted, locations removed.
      const missing = await h.err('browser_evaluate', { ...s, script: 'nonExistentVariable + 1' });
      expect(missing.code).toBe('SCRIPT_ERROR');
      expect(missing.message).toContain('nonExistentVariable is not defined');
      expect(missing.details).toMatchObject({ errorClass: 'ReferenceError', line: 1 });
      const thrown = await h.err('browser_evaluate', {
        ...s,
        script:
          "throw new Error('bad token=abc123secret in /home/agent/private/run.js from http://127.0.0.1:9/x?k=1')",
      });
      expect(thrown.code).toBe('SCRIPT_ERROR');
      expect(thrown.message).toContain('bad token=');
      for (const leak of ['abc123secret', '/home/agent', '127.0.0.1:9'])
        expect(thrown.message).not.toContain(leak);
      const long = await h.err('browser_evaluate', { ...s, script: "throw new Error('y'.repeat(5000))" });
      expect(long.message.length).toBeLessThan(500);
      expect(await h.ok('browser_get_title', s)).toMatchObject({ title: 'Evaluated' });
    } finally {
      await h.close();
    }
  });
});
