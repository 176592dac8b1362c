import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { errnoOf, ioError } from './errors.js';

/**
 * Session files a user chose to keep (browser_files action=keep) live beside the saved states, in
 * `<states folder>/files/`, so they outlive the session the way a saved state does. They count against
 * the saved-state quotas: at most `maxSavedStates` kept files, and their bytes together with the
 * states' within `maxStateTotalBytes`.
 */
export const KEPT_FOLDER = 'files';

export interface KeptUsage {
  count: number;
  bytes: number;
}

/** Regular files directly in the kept folder (a missing folder is empty; links and folders ignored). */
export async function keptUsage(dir: string): Promise<KeptUsage> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { count: 0, bytes: 0 };
    throw ioError('Could not read the kept files', error);
  }
  const usage = { count: 0, bytes: 0 };
  for (const name of names) {
    const info = await fs.lstat(join(dir, name)).catch(() => undefined);
    if (!info?.isFile()) continue;
    usage.count += 1;
    usage.bytes += info.size;
  }
  return usage;
}

/** Creates the kept folder 0700; one that is a symlink or not a directory is refused, never followed. */
export async function ensureKeptFolder(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') throw ioError('Could not prepare the kept files folder', error);
  }
  const info = await fs.lstat(dir);
  if (!info.isDirectory()) {
    throw new BrowserMeshError(
      ErrorCodes.PERSISTENCE_DISABLED,
      'The kept files folder is not a real directory',
      {
        details: { reason: 'kept_dir_not_directory' },
        recoveryHint: 'The server operator must replace it with a plain directory.',
      },
    );
  }
}

/** Over a saved-state quota while keeping a file: the hint says what frees room for kept files. */
export function keptQuotaError(message: string, field: string, limit: number): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.LIMIT_EXCEEDED, message, {
    details: { field, limit },
    recoveryHint:
      'Kept files share the saved-state quotas: remove saved states (browser_state_remove), ask the operator to clear kept files, or read the file with browser_files instead.',
  });
}
