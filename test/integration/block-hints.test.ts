/**
 * A refused navigation names the setting that allows it: over HTTP the private-network
 * block is on by default, so a newcomer's first navigation to a local dev server is refused.
 * Loopback only: the fixture on 127.0.0.1, and 127.0.0.2 configured as a blocked range.
 */
import { describe, expect, test } from './support/fixtures.js';
import { McpHarness } from '../helpers/harness.js';

const hintOf = (error: object): string => String((error as { recoveryHint?: unknown }).recoveryHint);

describe('the hint of a refused navigation', () => {
  test('names --block-private-network for a loopback address (HTTP mode default)', async ({ site }) => {
    const h = await McpHarness.start({ http: true, blockPrivateNetwork: 'auto' });
    try {
      const at = await h.session();
      const refused = await h.err('browser_navigate', { ...at, url: site.url('/') });
      expect(refused.code).toBe('NAVIGATION_BLOCKED');
      expect(refused.details).toMatchObject({ reason: 'loopback' });
      expect(hintOf(refused)).toContain('--block-private-network off');
      expect(hintOf(refused)).toContain('BROWSERMESH_BLOCK_PRIVATE_NETWORK');
    } finally {
      await h.close();
    }
  });

  test('names BROWSERMESH_BLOCKED_ADDRESSES for a configured range', async ({ site }) => {
    const h = await McpHarness.start({ blockedAddresses: ['127.0.0.2/32'] });
    try {
      const at = await h.session();
      const port = new URL(site.origin).port;
      const refused = await h.err('browser_navigate', { ...at, url: `http://127.0.0.2:${port}/` });
      expect(refused.details).toMatchObject({ reason: 'blocked_address' });
      expect(hintOf(refused)).toContain('BROWSERMESH_BLOCKED_ADDRESSES');
    } finally {
      await h.close();
    }
  });
});
