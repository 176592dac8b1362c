import { mkdir } from 'node:fs/promises';
import type { BrowserContext, BrowserContextOptions } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { SessionUrlGuard, type UrlPolicy } from '../../url-policy/index.js';
import { CHROMIUM_ARGS, chromiumOrThrow } from './local.js';
import { loadChromium } from './playwright-loader.js';
import { exitedWithin, liveLockHolder } from './profile-lock.js';
import type { BrowserLease, BrowserProvider, ProviderStatus } from './provider.js';

export interface PersistentProfileOptions {
  /** Absolute folder of the Chromium profile; created (0700) when missing. */
  userDataDir: string;
  headless: boolean;
  executablePath: string;
  sandbox?: boolean;
  /** What every session shares: the server's browser defaults and the operator's options. */
  contextOptions: BrowserContextOptions;
  initScriptPaths: readonly string[];
  urlPolicy: UrlPolicy;
}

/**
 * `--user-data-dir`: one Chromium launched on a persistent profile, whose single context every
 * session shares. Sessions keep their own pages, queues, refs and files, but cookies, storage, cache
 * and logins are the profile's — what one session sets, every other session sees, and the next
 * server run on the same folder starts from it. The browser is launched on first use (or warm-up);
 * after it goes away the next session launches it again on the same folder.
 */
export class PersistentProfileProvider implements BrowserProvider {
  readonly name = 'local';
  readonly onThisMachine = true;
  private context: BrowserContext | undefined;
  private pending: Promise<BrowserContext> | undefined;
  private guard: Promise<SessionUrlGuard> | undefined;
  private state: ProviderStatus['state'] = 'idle';
  private closed = false;
  /** The pid of the Chromium this provider launched last, as its SingletonLock names it. */
  private launchedPid: number | undefined;

  constructor(private readonly options: PersistentProfileOptions) {}

  /** Every session's requests go through one guard, opened once with the profile. */
  async sharedUrlGuard(): Promise<SessionUrlGuard> {
    return (await this.ownGuard()).borrow();
  }

  async acquire(options: { timeoutMs: number }): Promise<BrowserLease> {
    if (this.closed) throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The runtime is shutting down');
    const context = this.context ?? (await this.launchOnce(options.timeoutMs));
    const browser = context.browser();
    if (!browser) throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The profile browser went away');
    return {
      browser,
      placement: { provider: 'local' },
      ownsProcess: true,
      sharedContext: context,
      release: async () => {},
    };
  }

  warmUp(timeoutMs: number): Promise<void> {
    if (this.closed || this.context) return Promise.resolve();
    return (this.pending ?? this.launchOnce(timeoutMs)).then(
      () => undefined,
      () => undefined,
    );
  }

  status(): ProviderStatus {
    const browser = this.context?.browser();
    const connected = browser?.isConnected() === true;
    return {
      provider: this.name,
      state: connected ? 'ready' : this.state,
      browserVersion: connected && browser ? browser.version() : null,
    };
  }

  /** Closing the context is what writes the profile's cookies to disk for the next run. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const context = this.context ?? (await this.pending?.catch(() => undefined));
    this.context = undefined;
    if (context) await context.close().catch(() => undefined);
    const guard = await this.guard?.catch(() => undefined);
    await guard?.close();
  }

  private ownGuard(): Promise<SessionUrlGuard> {
    // An operator proxy takes the guard's place, as for launched contexts (docs/security.md).
    this.guard ??= SessionUrlGuard.open(
      this.options.urlPolicy,
      true,
      this.options.contextOptions.proxy !== undefined,
    );
    return this.guard;
  }

  private launchOnce(timeoutMs: number): Promise<BrowserContext> {
    this.pending ??= (async () => {
      this.state = 'launching';
      try {
        const context = await this.launch(timeoutMs);
        context.on('close', () => {
          if (this.context === context) this.context = undefined;
          this.state = 'disconnected';
        });
        if (this.closed) {
          await context.close().catch(() => undefined);
          throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The runtime is shutting down');
        }
        this.context = context;
        this.state = 'ready';
        return context;
      } catch (error) {
        this.state = 'idle';
        throw error;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }

  private async launch(timeoutMs: number): Promise<BrowserContext> {
    const { userDataDir, contextOptions } = this.options;
    const executablePath = await chromiumOrThrow(this.options.executablePath);
    const guardProxy = (await this.ownGuard()).contextProxy();
    await mkdir(userDataDir, { recursive: true, mode: 0o700 });
    // Checked first: a headed Chromium would otherwise hand the launch to the running one and exit.
    // Our own last browser, whose close we saw, is on its way out: it is waited for, not blamed.
    const holder = await liveLockHolder(userDataDir);
    if (holder !== undefined && (holder !== this.launchedPid || !(await exitedWithin(holder, timeoutMs)))) {
      throw profileInUse();
    }
    let context: BrowserContext;
    try {
      context = await (
        await loadChromium()
      ).launchPersistentContext(userDataDir, {
        ...contextOptions,
        ...(guardProxy ? { proxy: guardProxy } : {}),
        executablePath,
        headless: this.options.headless,
        chromiumSandbox: this.options.sandbox ?? false,
        args: CHROMIUM_ARGS,
        timeout: timeoutMs,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      if (/ProcessSingleton|already in use/i.test(String(error))) throw profileInUse(error);
      throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'Chromium failed to launch on the profile', {
        cause: error,
        details: { reason: 'launch_failed' },
        recoveryHint: 'Run `browsermesh --doctor` to see what is missing.',
      });
    }
    this.launchedPid = await liveLockHolder(userDataDir);
    for (const path of this.options.initScriptPaths) await context.addInitScript({ path });
    return context;
  }
}

/** The folder is never named: it may be a user's home. */
function profileInUse(cause?: unknown): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.BROWSER_ERROR,
    'The persistent profile (--user-data-dir) is in use by another Chromium',
    {
      cause,
      details: { reason: 'profile_in_use' },
      recoveryHint:
        'Stop the other BrowserMesh server or browser using this folder, or give each server its own --user-data-dir.',
    },
  );
}
