import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientSettings } from './client-settings.js';
import { SETTINGS } from './settings.js';
import type { SettingSpec } from './setting-spec.js';
import { DEFAULT_DATA_DIR, THIN_CLIENT_ENV, thinClientEnv, thinDataDir } from './thin-client-env.cjs';

const spec = (key: string): SettingSpec | undefined =>
  (SETTINGS as readonly SettingSpec[]).find((s) => s.key === key);

describe('the thin client’s environment', () => {
  it('names the variables and default of the settings table', () => {
    for (const [key, env] of Object.entries(THIN_CLIENT_ENV)) expect(spec(key)?.env).toBe(env);
    expect(spec('dataDir')?.default).toBe(DEFAULT_DATA_DIR);
  });

  it('finds the data directory where clientSettings does', () => {
    for (const dir of [undefined, '', '~', '~/bm', '/abs/dir', 'rel/dir']) {
      const env = dir === undefined ? {} : { BROWSERMESH_DATA_DIR: dir };
      expect(thinDataDir(env)).toBe(clientSettings(env)?.dataDir);
    }
    expect(thinDataDir({})).toBe(join(homedir(), '.browsermesh'));
    expect(thinDataDir({ BROWSERMESH_DATA_DIR: 'rel' })).toBe(resolve('rel'));
  });

  it('leaves a config file and a refused value to the full client', () => {
    expect(thinDataDir({ BROWSERMESH_CONFIG: '/some/file.json' })).toBeUndefined();
    expect(thinDataDir({ BROWSERMESH_DATA_DIR: 'bad\ndir' })).toBeUndefined();
  });

  it('passes on only its own variables', () => {
    expect(thinClientEnv({ BROWSERMESH_SESSION: 'buyer', HOME: '/h', BROWSERMESH_TOKEN: 'x' })).toEqual({
      BROWSERMESH_SESSION: 'buyer',
    });
  });
});
