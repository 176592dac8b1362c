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

/** The browser part of the warm-up, run by the tools/list handler (see above). */
export function warmUpBrowser(mesh: BrowserMesh): void {
  void mesh.warmUp();
}

/**
 * The sandbox worker's warm-up, when browser_run is published: run once, after the first tool call
 * was answered. Not at initialize: the worker's start (its QuickJS module, V8 compiling the glue,
 * the throwaway scripts) is ~300 ms of CPU, and on a 2-core machine it competed with Chromium's
 * launch and the first session for the cores, on the path to the first navigation. After the first
 * answer Chromium is up, and the client's next turn (a model thinking) hides the worker's start.
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
