import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../config/load.js';
import { GUARD_BYPASS_LIST, SessionUrlGuard, urlPolicyFromConfig } from './index.js';

// Chromium bypasses a proxy implicitly for localhost, 127.0.0.0/8, 169.254/16 and
// fe80::/10 unless the bypass list subtracts those rules with `<-loopback>`. The list each mode's
// context (and the persistent profile's launch, which takes the same contextProxy()) gets is checked
// here; a page's requests in each mode are in test/integration/url-policy-default.test.ts. Nothing
// here connects anywhere: the guard only listens on 127.0.0.1.

const opened: SessionUrlGuard[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((guard) => guard.close()));
});

const modes: Array<[string, Partial<Config>]> = [
  ['stdio defaults', {}],
  ['--http (private network blocked)', { http: true }],
  ['--http --block-private-network off', { http: true, blockPrivateNetwork: 'off' }],
  ['a blocked range', { blockedAddresses: ['127.0.0.2/32'] }],
  ['an allow list', { allowedOrigins: ['example.com'] }],
  ['--user-data-dir', { userDataDir: '/tmp/bm-profile-unused' }],
];

describe('the bypass list a guarded context gets', () => {
  for (const [mode, overrides] of modes) {
    it(`${mode}: only <-loopback>, so no destination bypasses the guard`, async () => {
      const guard = await SessionUrlGuard.open(urlPolicyFromConfig(defaultConfig(overrides)), true);
      opened.push(guard);
      const proxy = guard.contextProxy();
      expect(proxy?.server).toMatch(/^socks5:\/\/127\.0\.0\.1:\d+$/);
      expect(proxy?.bypass).toBe('<-loopback>');
      expect(guard.contextOptions()).toEqual({ proxy });
    });
  }

  it('the list subtracts the implicit rules and adds no direct destination', () => {
    expect(GUARD_BYPASS_LIST.split(/[,;]/).map((rule) => rule.trim())).toEqual(['<-loopback>']);
  });

  it('an operator proxy takes the guard proxy’s place (request interception enforces instead)', async () => {
    const guard = await SessionUrlGuard.open(urlPolicyFromConfig(defaultConfig()), true, true);
    opened.push(guard);
    expect(guard.contextProxy()).toBeUndefined();
  });
});
