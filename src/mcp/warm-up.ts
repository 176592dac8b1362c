import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserMesh } from '../engine/runtime.js';
import type { ToolCatalog } from './tool-catalog.js';

/** The longest a tools/call waits for a launch in flight before loading the tools anyway. */
const LAUNCH_WAIT_MS = 5_000;

/**
 * What a server starts before its first calls need it, in the order that keeps the main thread free
 * while Chromium launches: Playwright answers Chromium's launch handshake on this thread, so the
 * tools' modules and zod schemas (a few hundred ms of CPU), loaded meanwhile, made the launch wait.
 *
 * 1. At the client's first tools/list (a client that will use the tools, not a one-shot
 *    `browser_runtime_info`): the local Chromium's launch. The listing is answered from the one made
 *    at build time, without the tools.
 * 2. When the launch has ended: the tools, while the runtime makes its spare context and page
 *    (engine/spare-context.ts) — Chromium's work, on the other core — and then, when browser_run is
 *    published, the sandbox worker.
 * A tools/call that comes during the launch waits for it (at most {@link LAUNCH_WAIT_MS}) before
 * loading the tools. A client that never lists the tools gets the tools at initialize, as before,
 * and the sandbox worker after its first answered call.
 */
export class ServerWarmUp {
  private launching: Promise<void> | undefined;
  private sandboxStarted = false;

  constructor(
    private readonly mesh: BrowserMesh,
    private readonly catalog: () => Promise<ToolCatalog>,
    /** The build-time listing, when it describes the catalog: which tools are published, unloaded. */
    private readonly prebuilt: readonly Tool[] | undefined,
  ) {}

  /** Registers the warm-up on the server's `initialized` notification. */
  install(server: Server): void {
    const previous = server.oninitialized;
    server.oninitialized = () => {
      previous?.();
      // A client that lists the tools next loads them after the launch instead (see listed()).
      setImmediate(() => {
        if (!this.launching) this.loadTools();
      });
    };
  }

  /** The first tools/list: the launch, then the tools and the sandbox worker. */
  listed(): void {
    this.launching ??= this.mesh.warmUp().then(() => {
      this.loadTools();
      this.startSandbox();
    });
  }

  /** What a tools/call waits for before it loads the tools: a launch in flight, for a while. */
  beforeCall(): Promise<void> {
    const launching = this.launching;
    if (!launching) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, LAUNCH_WAIT_MS)));
    return Promise.race([launching, waited]).finally(() => clearTimeout(timer));
  }

  /** After a call was answered: the sandbox worker, for a client that never listed the tools. */
  answered(): void {
    if (!this.launching) setImmediate(() => this.startSandbox());
  }

  private loadTools(): void {
    // A tool module that fails to load fails the first call that needs it, with its own error.
    this.catalog().catch(() => undefined);
  }

  /**
   * The sandbox worker, when browser_run is published: once, after the launch. Not at initialize:
   * the worker's start (a thread, its modules, the QuickJS module, the throwaway scripts) is a few
   * hundred ms of CPU, and on a 2-core machine it took a core from Chromium's launch. Not after the
   * first answered call either: a browser_run sent right after the first navigation then waited for
   * the whole start (bench: first run ~30x the second).
   */
  private startSandbox(): void {
    if (this.sandboxStarted) return;
    this.sandboxStarted = true;
    const published = this.prebuilt
      ? Promise.resolve(this.prebuilt.some((tool) => tool.name === 'browser_run'))
      : this.catalog().then((loaded) => loaded.byName.has('browser_run'));
    published
      .then(async (run) => {
        if (run) (await import('../code-mode/sandbox.js')).prewarmSandbox();
      })
      .catch(() => undefined);
  }
}
