import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * What the shell face's warm thin client (src/cli/face/thin-client.cts) reads from the environment,
 * without the settings table: Node built-ins only, so a warm command loads nothing else. The names
 * and the data directory's default are unit-tested against the settings table (thin-client-env.test.ts).
 */
export const THIN_CLIENT_ENV = {
  dataDir: 'BROWSERMESH_DATA_DIR',
  cliSession: 'BROWSERMESH_SESSION',
  configFile: 'BROWSERMESH_CONFIG',
} as const;
export const DEFAULT_DATA_DIR = '~/.browsermesh';

/** The variables above that are set, for the daemon to read the command's settings from. */
export function thinClientEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of Object.values(THIN_CLIENT_ENV)) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/**
 * The data directory as `clientSettings` reads it, from the environment alone; undefined when a
 * config file may name it (only the full client reads the file) or the value is one the loader
 * refuses.
 */
export function thinDataDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  if (env[THIN_CLIENT_ENV.configFile]) return undefined;
  const set = env[THIN_CLIENT_ENV.dataDir];
  const dir = set === undefined || set === '' ? DEFAULT_DATA_DIR : set;
  // eslint-disable-next-line no-control-regex -- control characters are what the loader refuses
  if (/[\u0000-\u001f]/.test(dir)) return undefined;
  if (dir === '~') return homedir();
  if (dir.startsWith('~/')) return join(homedir(), dir.slice(2));
  return isAbsolute(dir) ? dir : resolve(dir);
}
