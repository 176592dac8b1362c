import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load.js';

function expectConfigError(fn: () => unknown, source: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).source).toBe(source);
    return;
  }
  throw new Error('expected a ConfigError');
}

describe('--guard-host', () => {
  const grid = ['--selenium-url', 'http://127.0.0.1:4444'];

  it('takes an IP address of this machine with the selenium provider', () => {
    expect(loadConfig([...grid, '--guard-host', '127.0.0.1'], {}).config.guardHost).toBe('127.0.0.1');
    const env = {
      BROWSERMESH_SELENIUM_URL: 'http://grid.internal:4444',
      BROWSERMESH_GUARD_HOST: '10.1.2.3',
    };
    expect(loadConfig([], env).config.guardHost).toBe('10.1.2.3');
    expect(loadConfig([], {}).config.guardHost).toBe('');
  });

  it('takes an IP address of this machine with the cdp provider (a browser on another machine)', () => {
    const cdp = ['--cdp-endpoint', 'http://browser.internal:9222', '--guard-host', '10.1.2.3'];
    expect(loadConfig(cdp, {}).config.guardHost).toBe('10.1.2.3');
    const loop = ['--cdp-endpoint', 'http://127.0.0.1:9222', '--guard-host', '127.0.0.1'];
    expect(loadConfig(loop, {}).config.guardHost).toBe('127.0.0.1');
  });

  it('refuses a name, the unspecified or a multicast address, loopback for a remote Grid, other providers', () => {
    const bad: Array<[string[], string]> = [
      [[...grid, '--guard-host', 'guard.internal'], 'IP address'],
      [[...grid, '--guard-host', '0.0.0.0'], 'unspecified'],
      [[...grid, '--guard-host', '::'], 'unspecified'],
      [[...grid, '--guard-host', '239.1.1.1'], 'unicast'],
      [[...grid, '--guard-host', 'ff02::1'], 'unicast'],
      [[...grid, '--guard-host', '1.2.3'], 'IP address'],
      [['--selenium-url', 'http://grid.internal:4444', '--guard-host', '127.0.0.1'], 'loopback'],
      [['--guard-host', '127.0.0.1'], 'remote browser only'],
      [['--cdp-endpoint', 'http://10.9.8.7:9222', '--guard-host', '127.0.0.1'], 'loopback'],
      [
        ['--cdp-endpoint', 'http://127.0.0.1:9222', '--cdp-guard', 'off', '--guard-host', '127.0.0.1'],
        'cdp-guard off',
      ],
      [[...grid, '--guard-host', '127.0.0.1 '], 'IP address'],
    ];
    for (const [argv, why] of bad) {
      expectConfigError(() => loadConfig(argv, {}), '--guard-host');
      expect(() => loadConfig(argv, {}), argv.join(' ')).toThrow(why);
    }
  });
});

describe('loadConfig', () => {
  it('has safe defaults: headless, data dir under home, all profiles but evaluate', () => {
    const { config, command } = loadConfig([], {});
    expect(command).toBe('serve');
    expect(config.headless).toBe(true);
    expect(config.timeoutMs).toBe(10_000);
    expect(config.dataDir).toBe(join(homedir(), '.browsermesh'));
    expect(config.tools).toEqual(['core', 'observability', 'persistence', 'code']);
    expect(config.provider).toBe('local');
  });

  it('reads env and lets flags win', () => {
    const env = {
      BROWSERMESH_TIMEOUT_MS: '5000',
      BROWSERMESH_MAX_SESSIONS: '3',
      BROWSERMESH_HEADLESS: 'true',
    };
    const { config } = loadConfig(['--timeout', '7000', '--headed', '--max-pages=4'], env);
    expect(config.timeoutMs).toBe(7000);
    expect(config.maxSessions).toBe(3);
    expect(config.maxPages).toBe(4);
    expect(config.headless).toBe(false);
  });

  it('supports --no-x boolean flags and tool profiles', () => {
    const { config } = loadConfig(
      ['--no-persistence', '--no-schema-refs', '--tools', 'core,persistence'],
      {},
    );
    expect(config.persistence).toBe(false);
    expect(config.schemaRefs).toBe(false);
    expect(config.tools).toEqual(['core', 'persistence']);
  });

  it('names the variable of a bad env value', () => {
    expectConfigError(() => loadConfig([], { BROWSERMESH_TIMEOUT_MS: 'soon' }), 'BROWSERMESH_TIMEOUT_MS');
    expectConfigError(() => loadConfig([], { BROWSERMESH_HEADLESS: 'yes' }), 'BROWSERMESH_HEADLESS');
    expectConfigError(() => loadConfig([], { BROWSERMESH_MAX_SESSIONS: '0' }), 'BROWSERMESH_MAX_SESSIONS');
    expectConfigError(() => loadConfig([], { BROWSERMESH_LOG_LEVEL: 'loud' }), 'BROWSERMESH_LOG_LEVEL');
  });

  it('names the flag of a bad flag value, unknown flags and missing values', () => {
    expectConfigError(() => loadConfig(['--timeout', '-5'], {}), '--timeout');
    expectConfigError(() => loadConfig(['--tools', 'core,everything'], {}), '--tools');
    expectConfigError(() => loadConfig(['--frobnicate'], {}), '--frobnicate');
    expectConfigError(() => loadConfig(['--timeout'], {}), '--timeout');
    expectConfigError(() => loadConfig(['--headless=false'], {}), '--headless');
  });

  it('refuses a CDP endpoint that is not a URL and a cdp provider without one', () => {
    expectConfigError(() => loadConfig(['--cdp-endpoint', 'localhost:9222'], {}), '--cdp-endpoint');
    expectConfigError(() => loadConfig(['--provider', 'cdp'], {}), '--provider');
    expect(loadConfig(['--cdp-endpoint', 'http://127.0.0.1:9222'], {}).config.provider).toBe('cdp');
  });

  it('recognises the commands', () => {
    expect(loadConfig(['--doctor'], {}).command).toBe('doctor');
    expect(loadConfig(['--install-browser'], {}).command).toBe('install-browser');
    expect(loadConfig(['--help'], {}).command).toBe('help');
    expect(loadConfig(['--version'], {}).command).toBe('version');
  });
});
