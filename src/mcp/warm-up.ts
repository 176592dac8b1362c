import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { BrowserMesh } from '../engine/runtime.js';
import type { ToolCatalog } from './tool-catalog.js';

/**
 * Once the client has initialized (so `initialize` itself is never slowed), start what the first
 * calls would otherwise wait for: the tools and their tools/list entries (the client's next
 * request) and, when browser_run is published, a sandbox worker; at the first tools/list (a client
 * that will use the tools, not a one-shot `browser_runtime_info`), the local Chromium. All are
 * shared with the first real use; all are idempotent across HTTP clients.
 */
export function warmUpOnInitialized(
  server: Server,
  mesh: BrowserMesh,
  catalog: () => Promise<ToolCatalog>,
): void {
  const previous = server.oninitialized;
  server.oninitialized = () => {
    previous?.();
    catalog()
      .then(async (loaded) => {
        // The worker starts on its own thread: started first, it loads while the listing is built.
        if (loaded.byName.has('browser_run')) (await import('../code-mode/sandbox.js')).prewarmSandbox();
        loaded.listing();
      })
      // A tool module that fails to load fails the first call that needs it, with its own error.
      .catch(() => undefined);
  };
}

/** The browser part of the warm-up, run by the tools/list handler (see above). */
export function warmUpBrowser(mesh: BrowserMesh): void {
  void mesh.warmUp();
}
