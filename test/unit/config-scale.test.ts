/** Settings for providers and the HTTP transport: validated at load, refusals name their source. */
import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, loadConfig } from '../../src/config/load.js';

const load = (argv: string[], env: Record<string, string> = {}) => loadConfig(argv, env).config;
const refusal = (argv: string[], env: Record<string, string> = {}): ConfigError => {
  try {
    loadConfig(argv, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('provider settings', () => {
  it('derives the provider from its endpoint and refuses a provider without one', () => {
    expect(load(['--selenium-url', 'http://grid:4444']).provider).toBe('selenium');
    expect(load([], { BROWSERMESH_CDP_ENDPOINT: 'ws://127.0.0.1:9222' }).provider).toBe('cdp');
    expect(refusal(['--provider', 'selenium']).source).toBe('--provider');
    expect(refusal([], { BROWSERMESH_BROWSER_PROVIDER: 'selenium' }).source).toBe(
      'BROWSERMESH_BROWSER_PROVIDER',
    );
    expect(refusal(['--selenium-url', 'http://grid:4444', '--cdp-endpoint', 'ws://x:1']).source).toBe(
      '--selenium-url',
    );
    expect(
      load(['--provider', 'cdp', '--selenium-url', 'http://grid:4444', '--cdp-endpoint', 'ws://x:1'])
        .provider,
    ).toBe('cdp');
    expect(refusal(['--selenium-url', 'ftp://grid']).source).toBe('--selenium-url');
  });

  it('reads JSON headers and capabilities without ever echoing them', () => {
    const config = load([], {
      BROWSERMESH_CDP_HEADERS: '{"Authorization":"Bearer abc"}',
      BROWSERMESH_SELENIUM_CAPABILITIES: '{"platformName":"linux"}',
    });
    expect(config.remoteHeaders).toEqual({ Authorization: 'Bearer abc' });
    expect(config.seleniumCapabilities).toEqual({ platformName: 'linux' });
    for (const bad of ['{not json SECRET', '["SECRET"]', '{"X-Key":42}', '{"bad header":"SECRET"}']) {
      const error = refusal([], { BROWSERMESH_CDP_HEADERS: bad });
      expect(error.source).toBe('BROWSERMESH_CDP_HEADERS');
      expect(error.message).not.toContain('SECRET');
    }
    expect(refusal([], { BROWSERMESH_SELENIUM_CAPABILITIES: '[1]' }).source).toBe(
      'BROWSERMESH_SELENIUM_CAPABILITIES',
    );
    expect(refusal([], { BROWSERMESH_SELENIUM_PROBE_MS: '5' }).source).toBe('BROWSERMESH_SELENIUM_PROBE_MS');
  });
});

describe('HTTP settings', () => {
  it('defaults to loopback and per-client sessions', () => {
    const config = load(['--http']);
    expect(config).toMatchObject({
      http: true,
      httpHost: '127.0.0.1',
      httpPort: 8940,
      httpToken: '',
      sharedSessions: false,
    });
    expect(config.disconnectGraceMs).toBeGreaterThan(0);
    expect(
      load(['--http', '--port', '0', '--shared-sessions', '--allowed-hosts', 'a.example, b.example']),
    ).toMatchObject({
      httpPort: 0,
      sharedSessions: true,
      httpAllowedHosts: ['a.example', 'b.example'],
    });
  });

  it('demands a token for a non-loopback host, and a strong one', () => {
    expect(refusal(['--http', '--host', '0.0.0.0']).source).toBe('--host');
    expect(refusal(['--http'], { BROWSERMESH_HTTP_HOST: '10.1.2.3' }).source).toBe('BROWSERMESH_HTTP_HOST');
    expect(
      load(['--http', '--host', '0.0.0.0'], { BROWSERMESH_HTTP_TOKEN: 'a-long-enough-token-123' }).httpHost,
    ).toBe('0.0.0.0');
    const weak = refusal([], { BROWSERMESH_HTTP_TOKEN: 'short' });
    expect(weak.source).toBe('BROWSERMESH_HTTP_TOKEN');
    expect(weak.message).not.toContain('short');
    expect(refusal(['--port', '70000']).source).toBe('--port');
    expect(refusal([], { BROWSERMESH_HTTP_MAX_BODY_BYTES: '10' }).source).toBe(
      'BROWSERMESH_HTTP_MAX_BODY_BYTES',
    );
    expect(refusal(['--allowed-hosts', 'bad host']).source).toBe('--allowed-hosts');
  });

  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', 'example.com', '127.0.0.1.example.com'])
      expect(isLoopbackHost(host)).toBe(false);
  });
});
