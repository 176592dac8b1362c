import type { Config } from '../config/load.js';
import { isBrowserMeshError } from '../errors.js';
import { stateStoreFromConfig } from '../persistence/store.js';

/**
 * `--export-state ID`: prints a saved state as a Playwright storageState file (`{cookies, origins}`)
 * on stdout, for `--storage-state`, Playwright's `storageState` option or another machine. The
 * state holds session cookies: stdout is the only place it goes, never a log. Returns the exit status.
 */
export async function exportState(
  config: Config,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  try {
    const state = await stateStoreFromConfig(config).load(config.exportState);
    out(`${JSON.stringify({ cookies: state.cookies, origins: state.origins }, null, 2)}\n`);
    return 0;
  } catch (error) {
    // The code and the safe message only (they name the id, never the content).
    const code = isBrowserMeshError(error) ? error.code : 'INTERNAL_ERROR';
    err(`browsermesh: cannot export the saved state (${code})\n`);
    return 1;
  }
}
