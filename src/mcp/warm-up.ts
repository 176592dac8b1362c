import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { BrowserMesh } from '../engine/runtime.js';
import type { ToolCatalog } from './tool-catalog.js';

/**
 * Once the client has initialized (so `initialize` itself is never slowed), start loading what the
 * first calls would otherwise wait for: the tools (the client's next request lists them); at the
 * first tools/list (a client that will use the tools, not a one-shot `browser_runtime_info`), the
 * local Chromium. Both are shared with the first real use; both are idempotent across HTTP clients.
 */
export function warmUpOnInitialized(server: Server, catalog: () => Promise<ToolCatalog>): void {
  const previous = server.oninitialized;
  server.oninitialized = () => {
    previous?.();
    // A tool module that fails to load fails the first call that needs it, with its own error.
    catalog().catch(() => undefined);
  };
}

/**
 * The browser part of the warm-up, run by the tools/list handler (see above); `afterLaunch` runs
 * once the launch ended, either way.
 */
export function warmUpBrowser(mesh: BrowserMesh, afterLaunch: () => void): void {
  void mesh.warmUp().then(afterLaunch);
}

/**
 * The sandbox worker's warm-up, when browser_run is published: run once, when the local Chromium's
 * launch has ended (or after the first answered call, for a client that never lists the tools).
 * Not at initialize: the worker's start (a thread, its modules, the QuickJS module, the throwaway
 * scripts) is a few hundred ms of CPU, and on a 2-core machine it took a core from the server's
 * module loading and Chromium's launch. After the launch the main thread mostly waits for Chromium
 * (context, page, navigation), and the worker is ready by the end of the first navigation. Waiting
 * for the first answered call instead left a browser_run sent right after that navigation waiting
 * for the whole start (bench: first run ~30x the second).
 */
export function sandboxWarmUp(catalog: () => Promise<ToolCatalog>): () => void {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    catalog()
      .then(async (loaded) => {
        if (loaded.byName.has('browser_run')) (await import('../code-mode/sandbox.js')).prewarmSandbox();
      })
      .catch(() => undefined);
  };
}
