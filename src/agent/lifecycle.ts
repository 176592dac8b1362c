import type { Browser } from 'playwright-core';
import { defaultConfig } from '../config/load.js';
import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../errors.js';
import { silentLogger, type Logger } from '../engine/logger.js';
import { CdpProvider } from '../engine/providers/cdp.js';
import { LocalProvider } from '../engine/providers/local.js';
import type { BrowserProvider } from '../engine/providers/provider.js';
import { BrowserMesh } from '../engine/runtime.js';
import { installDialogHandling } from '../operations/page-services/dialogs.js';
import { checkCdpUrl, type BrowserStatus, type ResolvedOptions } from './options.js';

/** One launched browser: its runtime and a generation number that changes with every launch. */
export interface LaunchedBrowser {
  mesh: BrowserMesh;
  generation: number;
}

export interface LifecycleHooks {
  /** After the browser is ready; a throw fails the launch (and closes what was launched). */
  onLaunch(): Promise<void>;
  /** Before a ready browser is closed; a throw is logged and the close goes on. */
  onClose(): Promise<void>;
  /** Before the runtime shuts down (recordings are finished here, while pages still exist). */
  beforeShutdown(generation: number): Promise<void>;
  /** The browser went away by itself (crash, kill, remote end closed). */
  onDisconnected(generation: number): void;
  onStatus(status: BrowserStatus): void;
}

/** Sessions per AgentBrowser: one per thread in thread scope. */
const MAX_SESSIONS = 1000;

/**
 * Launch and close of the one browser every thread shares, safe under concurrency: concurrent
 * launches share one attempt, a close during a launch waits for it and then closes what it made,
 * and a browser that went away is replaced by the next `ensureReady()`. Only a browser this object
 * launched is ever killed: over `cdpUrl`, closing only disconnects.
 */
export class BrowserLifecycle {
  private current: LaunchedBrowser | undefined;
  private generation = 0;
  private state: BrowserStatus = 'pending';
  private launching: Promise<LaunchedBrowser> | undefined;
  private closing: Promise<void> | undefined;
  private closeRequested = false;
  private errorText: string | undefined;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly hooks: LifecycleHooks,
    private readonly logger: Logger = silentLogger,
  ) {}

  get status(): BrowserStatus {
    return this.state;
  }

  /** Why the last launch failed (a safe message), when the status is 'error'. */
  get error(): string | undefined {
    return this.errorText;
  }

  /** The running browser, if any, without launching. */
  get running(): LaunchedBrowser | undefined {
    return this.state === 'ready' ? this.current : undefined;
  }

  /** A ready browser: launches, waits for a launch in progress, or relaunches after a close or a crash. */
  async ensureReady(): Promise<LaunchedBrowser> {
    if (this.state === 'ready' && this.current) return this.current;
    if (this.state === 'closing') await this.closing;
    return this.launch();
  }

  /** Launches the browser; concurrent calls share one attempt; a no-op when already ready. */
  launch(): Promise<LaunchedBrowser> {
    if (this.state === 'ready' && this.current) return Promise.resolve(this.current);
    this.launching ??= this.doLaunch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  /** Closes the browser (disconnects over cdpUrl). Idempotent; waits for a launch in progress. */
  close(): Promise<void> {
    this.closing ??= this.doClose().finally(() => {
      this.closing = undefined;
    });
    return this.closing;
  }

  private async doLaunch(): Promise<LaunchedBrowser> {
    this.closeRequested = false;
    this.errorText = undefined;
    this.setStatus('launching');
    let mesh: BrowserMesh | undefined;
    try {
      const provider = await this.createProvider();
      mesh = new BrowserMesh({ config: this.config(), provider, logger: this.logger });
      // Dialogs nobody expected are dismissed and reported, so they never block a thread.
      installDialogHandling(mesh);
      // Acquire once now, so launch() means a running browser and its loss can be watched.
      const lease = await provider.acquire({ timeoutMs: this.options.timeoutMs });
      const launched = { mesh, generation: ++this.generation };
      this.watch(lease.browser, launched.generation);
      if (this.closeRequested) throw closedDuringLaunch();
      this.current = launched;
      this.setStatus('ready');
      await this.hooks.onLaunch();
      if (this.closeRequested) throw closedDuringLaunch();
      return launched;
    } catch (error) {
      this.current = undefined;
      await mesh?.shutdown().catch(() => undefined);
      const mapped = toLaunchError(error);
      this.errorText = mapped.message;
      this.setStatus(this.closeRequested ? 'closed' : 'error');
      throw mapped;
    }
  }

  private async doClose(): Promise<void> {
    this.closeRequested = true;
    if (this.launching) await this.launching.catch(() => undefined);
    const launched = this.current;
    if (!launched) {
      if (this.state !== 'pending') this.setStatus('closed');
      return;
    }
    if (this.state === 'ready') {
      await this.hooks
        .onClose()
        .catch(() => this.logger.warn('agent_on_close_failed', { code: ErrorCodes.INTERNAL_ERROR }));
    }
    this.setStatus('closing');
    this.current = undefined;
    await this.hooks.beforeShutdown(launched.generation).catch(() => undefined);
    await launched.mesh.shutdown().catch(() => undefined);
    this.setStatus('closed');
  }

  private async createProvider(): Promise<BrowserProvider> {
    const cdpUrl = this.options.cdpUrl;
    if (cdpUrl === undefined) {
      return new LocalProvider({
        headless: this.options.headless,
        executablePath: this.options.executablePath,
      });
    }
    // A function is resolved at every launch, so a hosted provider can mint a fresh URL each time.
    const endpoint = typeof cdpUrl === 'function' ? await resolveCdpUrl(cdpUrl) : cdpUrl;
    return new CdpProvider({ endpoint: checkCdpUrl(endpoint) });
  }

  private config(): ReturnType<typeof defaultConfig> {
    return defaultConfig({
      timeoutMs: this.options.timeoutMs,
      headless: this.options.headless,
      executablePath: this.options.executablePath,
      maxSessions: MAX_SESSIONS,
      persistence: false,
      logLevel: 'silent',
      uploadRoots: this.options.uploadRoots,
      ...(this.options.dataDir === undefined ? {} : { dataDir: this.options.dataDir }),
      secrets: { ...this.options.secrets },
      readSecretInputs: this.options.readSecretInputs,
    });
  }

  private watch(browser: Browser, generation: number): void {
    browser.once('disconnected', () => {
      if (this.current?.generation !== generation || this.state !== 'ready') return;
      this.logger.warn('agent_browser_disconnected', { reason: 'disconnected' });
      const lost = this.current;
      this.current = undefined;
      this.setStatus('closed');
      this.hooks.onDisconnected(generation);
      lost.mesh.shutdown().catch(() => undefined);
    });
  }

  private setStatus(status: BrowserStatus): void {
    if (this.state === status) return;
    this.state = status;
    this.hooks.onStatus(status);
  }
}

async function resolveCdpUrl(provider: () => string | Promise<string>): Promise<string> {
  let url: unknown;
  try {
    url = await provider();
  } catch (error) {
    throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The cdpUrl function failed', {
      cause: error,
      details: { reason: 'cdp_url_failed' },
    });
  }
  if (typeof url !== 'string')
    throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'cdpUrl: the function must return a string', {
      details: { field: 'cdpUrl' },
    });
  return url;
}

function closedDuringLaunch(): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The browser was closed while it was launching', {
    details: { reason: 'closed_during_launch' },
    recoveryHint: 'Call the tool again to launch a new browser.',
  });
}

function toLaunchError(error: unknown): BrowserMeshError {
  if (isBrowserMeshError(error)) return error;
  return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The browser could not be started', {
    cause: error,
    details: { reason: 'launch_failed' },
  });
}
