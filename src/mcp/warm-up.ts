import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { prewarmSandbox } from '../code-mode/sandbox.js';
import type { BrowserMesh } from '../engine/runtime.js';

/**
 * Once the client has initialized (so `initialize` itself is never slowed), start what the first
 * calls would otherwise wait for: the local Chromium and, when browser_run is published, a sandbox
 * worker. Both are shared with the first real use; both are idempotent across HTTP clients.
 */
export function warmUpOnInitialized(server: Server, mesh: BrowserMesh, codeMode: boolean): void {
  const previous = server.oninitialized;
  server.oninitialized = () => {
    previous?.();
    mesh.warmUp();
    if (codeMode) prewarmSandbox();
  };
}
