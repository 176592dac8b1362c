import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { BrowserMesh } from '../engine/runtime.js';
import type { ToolCatalog } from './tool-catalog.js';

/**
 * Once the client has initialized (so `initialize` itself is never slowed), start what the first
 * calls would otherwise wait for: the local Chromium, the tools and their tools/list entries (the
 * client's next request) and, when browser_run is published, a sandbox worker. All are shared with
 * the first real use; all are idempotent across HTTP clients.
 */
export function warmUpOnInitialized(
  server: Server,
  mesh: BrowserMesh,
  catalog: () => Promise<ToolCatalog>,
): void {
  const previous = server.oninitialized;
  server.oninitialized = () => {
    previous?.();
    const browser = mesh.warmUp();
    catalog()
      .then(async (loaded) => {
        loaded.listing();
        // The sandbox worker compiles QuickJS on its own thread: started once the browser is up, so
        // it does not compete with Chromium's start on a small machine (the first browser_run
        // comes after a navigation anyway).
        if (loaded.byName.has('browser_run')) {
          await browser;
          (await import('../code-mode/sandbox.js')).prewarmSandbox();
        }
      })
      // A tool module that fails to load fails the first call that needs it, with its own error.
      .catch(() => undefined);
  };
}
