import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load.js';

const dir = mkdtempSync(join(tmpdir(), 'bm-config-'));
let files = 0;

function file(content: string): string {
  const path = join(dir, `f${files++}.json`);
  writeFileSync(path, content);
  return path;
}

/** The error a load raises; asserts it is a ConfigError and that no secret reached its text. */
function refused(argv: string[], env: Record<string, string> = {}, secret = 'hunter2secret'): ConfigError {
  try {
    loadConfig(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).not.toContain(secret);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('browser defaults', () => {
  it('are unset by default', () => {
    const { config } = loadConfig([], {});
    expect(config).toMatchObject({
      device: '',
      viewport: '',
      userAgent: '',
      locale: '',
      timezone: '',
      ignoreHttpsErrors: false,
      proxyServer: '',
      proxyBypass: [],
      extraHttpHeaders: {},
      initScripts: [],
      storageState: '',
      configFile: '',
    });
  });

  it('accept a playwright-core device name and refuse any other without echoing it', () => {
    expect(loadConfig(['--device', 'iPhone 15 Pro landscape'], {}).config.device).toBe(
      'iPhone 15 Pro landscape',
    );
    expect(refused(['--device', 'hunter2secret phone']).source).toBe('--device');
    expect(refused([], { BROWSERMESH_DEVICE: 'hunter2secret' }).source).toBe('BROWSERMESH_DEVICE');
  });

  it('check the viewport form and bounds', () => {
    expect(loadConfig(['--viewport-size', '800x600'], {}).config.viewport).toBe('800x600');
    for (const bad of ['800', '800x', 'x600', '99x600', '800x4321', '7681x600', '800 x 600', '-800x600']) {
      expect(refused(['--viewport-size', bad]).source).toBe('--viewport-size');
    }
  });

  it('check locale, time zone and user agent', () => {
    expect(refused(['--locale', 'not a locale']).source).toBe('--locale');
    expect(refused(['--timezone', '../etc/passwd']).source).toBe('--timezone');
    expect(refused(['--user-agent', 'x'.repeat(513)]).source).toBe('--user-agent');
    expect(refused(['--user-agent', 'a\nb']).source).toBe('--user-agent');
  });

  it('need init scripts and the storage state file to exist, and make their paths absolute', () => {
    const script = join(dir, 'init.js');
    writeFileSync(script, '');
    const state = file(JSON.stringify({ cookies: [], origins: [] }));
    const { config } = loadConfig(['--init-script', script, '--storage-state', state], {});
    expect(config.initScripts).toEqual([script]);
    expect(config.storageState).toBe(state);
    expect(refused(['--init-script', join(dir, 'missing.js')]).source).toBe('--init-script');
    expect(refused(['--init-script', dir]).source).toBe('--init-script');
    expect(refused(['--storage-state', join(dir, 'missing.json')]).source).toBe('--storage-state');
    const secretState = file('{"cookies": "hunter2secret"}');
    expect(refused(['--storage-state', secretState]).source).toBe('--storage-state');
    expect(refused(['--storage-state', file('not json hunter2secret')]).source).toBe('--storage-state');
  });

  it('refuse extra headers that are not a JSON object of strings, without echoing them', () => {
    expect(
      loadConfig([], { BROWSERMESH_EXTRA_HTTP_HEADERS: '{"X-Api-Key":"k"}' }).config.extraHttpHeaders,
    ).toEqual({ 'X-Api-Key': 'k' });
    for (const bad of [
      'hunter2secret',
      '["hunter2secret"]',
      '{"X":1,"hunter2secret":2}',
      '{"a b":"hunter2secret"}',
    ]) {
      expect(refused([], { BROWSERMESH_EXTRA_HTTP_HEADERS: bad }).source).toBe(
        'BROWSERMESH_EXTRA_HTTP_HEADERS',
      );
    }
  });
});

describe('--config file', () => {
  it('holds settings by key; the environment and flags override it', () => {
    const path = file(
      JSON.stringify({
        timeoutMs: 5000,
        headless: false,
        tools: ['core', 'code'],
        device: 'Pixel 7',
        locale: 'de-DE',
        extraHttpHeaders: { 'X-Team': 'qa' },
        proxyBypass: ['.a.test', 'localhost'],
      }),
    );
    const fromFile = loadConfig(['--config', path], {}).config;
    expect(fromFile).toMatchObject({
      timeoutMs: 5000,
      headless: false,
      tools: ['core', 'code'],
      device: 'Pixel 7',
      locale: 'de-DE',
      extraHttpHeaders: { 'X-Team': 'qa' },
      proxyBypass: ['.a.test', 'localhost'],
      configFile: path,
    });
    const layered = loadConfig(['--config', path, '--locale', 'fr-FR'], {
      BROWSERMESH_TIMEOUT_MS: '7000',
      BROWSERMESH_LOCALE: 'it-IT',
    }).config;
    expect(layered).toMatchObject({ timeoutMs: 7000, locale: 'fr-FR', device: 'Pixel 7' });
    expect(loadConfig([], { BROWSERMESH_CONFIG: path }).config.device).toBe('Pixel 7');
  });

  it('validates each value like its flag and names the key as the source', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ timeoutMs: 5 }, 'config file: timeoutMs'],
      [{ timeoutMs: '5s' }, 'config file: timeoutMs'],
      [{ headless: 'yes' }, 'config file: headless'],
      [{ tools: ['core', 'hunter2secret/x'] }, 'config file: tools'],
      [{ device: 'hunter2secret' }, 'config file: device'],
      [{ viewport: '10x10' }, 'config file: viewport'],
      [{ extraHttpHeaders: 'hunter2secret' }, 'config file: extraHttpHeaders'],
      [{ proxyServer: 'hunter2secret' }, 'config file: proxyServer'],
      [{ proxyBypass: [1, 2] }, 'config file: proxyBypass'],
      [{ hunter2secret: 1 }, 'config file: hunter2secret'],
      [{ 'bad key hunter2secret': 1 }, 'config file: …'],
      [{ configFile: 'other.json' }, 'config file: configFile'],
    ];
    for (const [content, source] of cases) {
      const error = refused(
        ['--config', file(JSON.stringify(content))],
        {},
        source.includes('hunter2') ? 'no-such-text' : 'hunter2secret',
      );
      expect(error.source).toBe(source);
    }
  });

  it('refuses a missing, unreadable or non-object file, naming the flag and not the content', () => {
    expect(refused(['--config', join(dir, 'missing.json')]).source).toBe('--config');
    expect(refused(['--config', file('hunter2secret')]).source).toBe('--config');
    expect(refused(['--config', file('["hunter2secret"]')]).source).toBe('--config');
    expect(refused([], { BROWSERMESH_CONFIG: file('null') }).source).toBe('BROWSERMESH_CONFIG');
    expect(refused(['--config']).source).toBe('--config');
  });
});
