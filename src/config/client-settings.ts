import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { readConfigFile } from './config-file.js';
import { SETTINGS, type SettingSpec } from './settings.js';

/** What a shell command needs to reach a running daemon: where its socket is, which session it means. */
export interface ClientSettings {
  dataDir: string;
  cliSession: string;
}

/**
 * The shell client's fast read of its two settings, from the same specs, config file and environment
 * as `loadConfig` and in the same order (default, file, environment), without loading the validators
 * of the settings only a starting daemon uses: a running daemon keeps the settings it started with.
 * `undefined` when anything is off (an unreadable file, a value its spec refuses): the caller then
 * loads the whole configuration, which says what is wrong, before it starts a daemon.
 */
export function clientSettings(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ClientSettings | undefined {
  const specs = SETTINGS as readonly SettingSpec[];
  const specOf = (key: string): SettingSpec | undefined => specs.find((spec) => spec.key === key);
  const configFile = specOf('configFile');
  const filePath = configFile ? env[configFile.env] : undefined;
  let file: ReadonlyMap<string, { value: string }> = new Map();
  if (filePath) {
    try {
      file = readConfigFile(filePath, 'config file');
    } catch {
      return undefined;
    }
  }
  const read = (key: string): string | undefined => {
    const spec = specOf(key);
    if (!spec || spec.type.kind !== 'string') return undefined;
    const fromEnv = env[spec.env];
    const value = fromEnv !== undefined && fromEnv !== '' ? fromEnv : (file.get(key)?.value ?? spec.default);
    // eslint-disable-next-line no-control-regex -- control characters are what the loader refuses
    if (/[\u0000-\u001f]/.test(value)) return undefined;
    if (spec.type.pattern && value !== '' && !spec.type.pattern.test(value)) return undefined;
    return value;
  };
  const dataDir = read('dataDir');
  const cliSession = read('cliSession');
  if (dataDir === undefined || cliSession === undefined) return undefined;
  return { dataDir: resolveDataDir(dataDir), cliSession };
}

/** `~` is the user's home; a relative path is taken from the working directory. */
export function resolveDataDir(dir: string): string {
  if (dir === '~') return homedir();
  if (dir.startsWith('~/')) return join(homedir(), dir.slice(2));
  return isAbsolute(dir) ? dir : resolve(dir);
}
