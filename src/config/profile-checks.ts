import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import type { RawValues } from './config-file.js';

/** The settings a persistent profile depends on (see settings.ts `userDataDir`). */
export interface ProfileValues {
  userDataDir: string;
  provider: string;
  storageState: string;
  httpTokensFile: string;
}

/**
 * Checks `--user-data-dir` at start, so a typo exits with status 2 instead of failing the first
 * session: only a locally launched Chromium has a profile folder here, a storageState file would fight
 * the profile's own cookies, and the folder must be (or be creatable as) a writable directory. The
 * path becomes absolute; it is never echoed (it may name a user's home).
 */
export function checkUserDataDir(config: ProfileValues, raw: RawValues): void {
  if (config.userDataDir === '') return;
  const source = raw.get('userDataDir')?.source ?? 'BROWSERMESH_USER_DATA_DIR';
  if (config.provider !== 'local') {
    throw new ConfigError(
      source,
      'a persistent profile works only with the local provider (a remote browser keeps its own profile)',
    );
  }
  if (config.storageState !== '') {
    throw new ConfigError(
      raw.get('storageState')?.source ?? 'BROWSERMESH_STORAGE_STATE',
      'cannot be combined with --user-data-dir: the profile keeps its own cookies and storage',
    );
  }
  if (config.httpTokensFile !== '') {
    // Principals are kept apart by their sessions' contexts; one shared profile would mix their logins.
    throw new ConfigError(
      source,
      'cannot be combined with --tokens-file: every principal would share one profile and its logins',
    );
  }
  const path = toAbsolute(config.userDataDir);
  const kind = kindOf(path);
  if (kind === 'other') throw new ConfigError(source, 'must be a directory');
  // A missing folder is created at launch; its nearest existing parent must then be writable.
  const existing = kind === 'dir' ? path : nearestExisting(path);
  if (existing === undefined || kindOf(existing) !== 'dir' || !writable(existing)) {
    throw new ConfigError(
      source,
      kind === 'dir' ? 'must be a writable directory' : 'cannot be created (no writable parent directory)',
    );
  }
  config.userDataDir = path;
}

function toAbsolute(path: string): string {
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  return resolve(expanded);
}

function kindOf(path: string): 'dir' | 'other' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'other';
  } catch {
    return 'missing';
  }
}

function nearestExisting(path: string): string | undefined {
  let current = dirname(path);
  for (;;) {
    const kind = kindOf(current);
    if (kind !== 'missing') return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
