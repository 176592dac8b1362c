import { BrowserMesh, type RuntimeOptions } from './engine/runtime.js';
import { installObservability } from './observability/index.js';
import { installDialogHandling } from './operations/page-services/dialogs.js';

/**
 * Attaches every per-page hook a fully working runtime needs (observability capture, dialog routing)
 * to pages adopted from now on. Idempotent; call it before the first session exists.
 */
export function installPageHooks(mesh: BrowserMesh): BrowserMesh {
  installObservability(mesh);
  installDialogHandling(mesh);
  return mesh;
}

/**
 * A BrowserMesh with every page hook installed: what the CLI, the tests and library users should
 * build instead of `new BrowserMesh`, so no face forgets one.
 *
 * @example
 * ```ts
 * import { createBrowserMesh, defaultConfig } from 'browsermesh';
 *
 * const mesh = createBrowserMesh({ config: defaultConfig() });
 * ```
 */
export function createBrowserMesh(options: RuntimeOptions): BrowserMesh {
  return installPageHooks(new BrowserMesh(options));
}
