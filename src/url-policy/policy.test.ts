import { describe, expect, it } from 'vitest';
import { parseOriginPattern } from './origin-pattern.js';
import { UrlPolicy, type UrlPolicyOptions } from './policy.js';

// Only checkName (no DNS) and literal-address checks: nothing here resolves or connects.
const policy = (options: Partial<UrlPolicyOptions> = {}): UrlPolicy =>
  new UrlPolicy({
    allowedOrigins: [],
    blockedOrigins: [],
    blockLinkLocal: true,
    blockPrivate: false,
    blockedAddresses: [],
    ...options,
  });

const reason = (p: UrlPolicy, host: string, port = 80, scheme?: string): string => {
  const verdict = p.checkName(host, port, scheme);
  return verdict.allowed ? 'allowed' : verdict.reason;
};

describe('UrlPolicy by name', () => {
  it('blocks link-local and metadata addresses by default, in every spelling', () => {
    const p = policy();
    for (const host of ['169.254.169.254', '2852039166', '0xa9fea9fe', '[::ffff:a9fe:a9fe]', '169.254.43518'])
      expect(reason(p, host), host).toBe('metadata');
    expect(reason(p, '169.254.1.1')).toBe('link_local');
    expect(reason(p, '[fe80::1]')).toBe('link_local');
    expect(reason(p, '0.0.0.0')).toBe('unspecified');
    expect(reason(p, '127.0.0.1')).toBe('allowed');
    expect(reason(p, '10.0.0.1')).toBe('allowed');
    expect(reason(policy({ blockLinkLocal: false }), '169.254.169.254')).toBe('allowed');
  });

  it('blocks loopback and private ranges when asked, except hosts listed by name', () => {
    const p = policy({ blockPrivate: true });
    expect(reason(p, '127.0.0.1')).toBe('loopback');
    expect(reason(p, '2130706433')).toBe('loopback');
    expect(reason(p, '[::1]')).toBe('loopback');
    expect(reason(p, '10.1.2.3')).toBe('private_network');
    expect(reason(p, '[fd00::5]')).toBe('private_network');
    const listed = policy({ blockPrivate: true, allowedOrigins: ['127.0.0.1:3000'] });
    expect(reason(listed, '127.0.0.1', 3000)).toBe('allowed');
    expect(reason(listed, '127.0.0.1', 3001)).toBe('not_in_allowed_origins');
    // Listing never unlocks the metadata service.
    expect(reason(policy({ allowedOrigins: ['169.254.169.254'] }), '169.254.169.254')).toBe('metadata');
  });

  it('applies allowed and blocked origin patterns (blocked wins)', () => {
    const p = policy({
      allowedOrigins: ['example.com', '*.example.org', 'https://secure.test'],
      blockedOrigins: ['bad.example.org'],
    });
    expect(reason(p, 'example.com', 8080)).toBe('allowed');
    expect(reason(p, 'EXAMPLE.com.')).toBe('allowed');
    expect(reason(p, 'sub.example.com')).toBe('not_in_allowed_origins');
    expect(reason(p, 'a.example.org')).toBe('allowed');
    expect(reason(p, 'example.org')).toBe('not_in_allowed_origins');
    expect(reason(p, 'bad.example.org')).toBe('blocked_origin');
    expect(reason(p, 'secure.test', 443, 'https')).toBe('allowed');
    expect(reason(p, 'secure.test', 80, 'http')).toBe('not_in_allowed_origins');
    expect(reason(p, 'secure.test', 443)).toBe('allowed');
  });

  it('matches a blocked IP pattern in any spelling', () => {
    const p = policy({ blockedOrigins: ['127.0.0.2'] });
    for (const host of ['127.0.0.2', '2130706434', '0x7f000002', '0177.0.0.2', '[::ffff:127.0.0.2]'])
      expect(reason(p, host), host).toBe('blocked_origin');
  });

  it('blocks configured CIDR ranges, mapped IPv6 included', () => {
    const p = policy({ blockedAddresses: ['127.0.0.2/32'] });
    expect(reason(p, '127.0.0.2')).toBe('blocked_address');
    expect(reason(p, '[::ffff:7f00:2]')).toBe('blocked_address');
    expect(reason(p, '127.0.0.1')).toBe('allowed');
    expect(() => policy({ blockedAddresses: ['nonsense'] })).toThrow();
  });

  it('knows when it is inactive', () => {
    expect(policy({ blockLinkLocal: false }).active).toBe(false);
    expect(policy().active).toBe(true);
  });
});

describe('checkUrl', () => {
  it('checks literal hosts without DNS and passes schemes without a network host', async () => {
    const p = policy({ blockedAddresses: ['127.0.0.2/32'] });
    expect(await p.checkUrl('http://2130706434:9/x')).toEqual({ allowed: false, reason: 'blocked_address' });
    expect(await p.checkUrl('http://[::ffff:127.0.0.2]/')).toEqual({
      allowed: false,
      reason: 'blocked_address',
    });
    expect(await p.checkUrl('about:blank')).toEqual({ allowed: true, address: undefined });
  });
});

describe('parseOriginPattern', () => {
  it('accepts the documented forms and refuses the rest', () => {
    expect(parseOriginPattern('https://a.test')).toMatchObject({
      host: 'a.test',
      port: 443,
      scheme: 'https',
    });
    expect(parseOriginPattern('*.a.test:8443')).toMatchObject({
      host: 'a.test',
      subdomains: true,
      port: 8443,
    });
    expect(parseOriginPattern('[::1]:3000')).toMatchObject({ port: 3000 });
    expect(parseOriginPattern('*')).toMatchObject({ wildcard: true });
    for (const bad of ['ftp://a.test', 'a.test:0', 'a.test:99999', 'a*.test', '', 'a test'])
      expect(() => parseOriginPattern(bad), bad).toThrow();
  });
});

describe('the unspecified address', () => {
  it('with link-local blocking off, 0.0.0.0 and :: are still refused while private networks are', () => {
    const p = policy({ blockLinkLocal: false, blockPrivate: true });
    for (const host of ['0.0.0.0', '0', '0x0', '[::]', '0.1.2.3'])
      expect(reason(p, host), host).toBe('unspecified');
    expect(reason(policy({ blockLinkLocal: false }), '0.0.0.0')).toBe('allowed');
  });

  it('an IP literal in blockedOrigins also blocks a host name resolving to it (localhost, no network)', async () => {
    const p = policy({ blockedOrigins: ['127.0.0.1', '[::1]'] });
    expect(await p.check('localhost', 80)).toEqual({ allowed: false, reason: 'blocked_origin' });
    const portOnly = policy({ blockedOrigins: ['127.0.0.1:9'] });
    expect(await portOnly.check('localhost', 9)).toEqual({ allowed: false, reason: 'blocked_origin' });
    expect((await portOnly.check('localhost', 10)).allowed).toBe(true);
  });
});
