import type { BrowserContextOptions } from 'playwright-core';
import type { SessionUrlGuard, UrlPolicy } from '../url-policy/index.js';
import { watchBrowser } from './browser-watch.js';
import { resolveContextSettings, toContextOptions, type ContextSettings } from './context-settings.js';
import type { Deadline } from './deadline.js';
import { withDeadline } from './race.js';
import { openSessionGuard } from './shared-profile.js';
import type { Logger } from './logger.js';
import type { BrowserProvider } from './providers/provider.js';
import type { CreateSessionInput } from './runtime-types.js';
import { openContext, type ContextInput, type OpenedContext } from './session-build.js';
import type { Session } from './session.js';
import type { SessionDefaults } from './session-defaults.js';

/** What every new context of a runtime is made with, whoever it is for. */
export interface ContextMaker {
  provider: BrowserProvider;
  defaults: SessionDefaults;
  urlPolicy: UrlPolicy;
  logger: Logger;
  /** The server's call deadline: what making the spare may take. */
  timeoutMs: number;
  sessions(): Iterable<Session>;
  shuttingDown(): boolean;
}

/** The input of openContext for a context guarded by `urlGuard`, with these settings. */
export function contextInputOf(
  maker: ContextMaker,
  urlGuard: SessionUrlGuard,
  settings: ContextSettings,
  storageState: BrowserContextOptions['storageState'],
): Omit<ContextInput, 'timeoutMs' | 'signal'> {
  const { operator } = maker.defaults;
  const state = storageState ?? operator.storageStatePath;
  return {
    provider: maker.provider,
    urlGuard,
    contextOptions: {
      ...toContextOptions(settings, operator),
      // The URL guard is a proxy; an operator's own proxy takes its place (see docs/security.md).
      ...urlGuard.contextOptions(),
      ...(state === undefined ? {} : { storageState: state }),
    },
    permissions: settings.permissions ?? [],
    initScriptPaths: operator.initScriptPaths ?? [],
    onBrowser: async (browser, ownsProcess) => {
      watchBrowser(
        browser,
        () => maker.sessions(),
        maker.logger,
        () => maker.shuttingDown(),
      );
      await urlGuard.attachBrowser(browser, ownsProcess);
    },
    onContext: (context) => urlGuard.attachContext(context),
  };
}

/** Counts for tests: spares made, taken by a session, and closed unused. */
export const spareStats = { made: 0, taken: 0, discarded: 0 };

/** A context, its first page and its own URL guard, made before any session asked for them. */
export interface Spare {
  urlGuard: SessionUrlGuard;
  opened: OpenedContext;
}

/** Whether a session asks for nothing but the server's defaults (so the spare is what it would get). */
export function wantsDefaults(input: CreateSessionInput): boolean {
  if (input.storageState !== undefined) return false;
  return Object.values(input.contextSettings ?? {}).every((value) => value === undefined);
}

/**
 * One spare context: made once, right after the warm-up's launch, while the server is still loading
 * the tools, so the first session does not wait for Chromium to make a context and start a renderer.
 * Taken by exactly one session (never shared, never made again); a spare nobody took is closed at
 * shutdown. A session with settings of its own makes its own context.
 */
export class SpareContext {
  private pending: Promise<Spare | undefined> | undefined;
  private started = false;

  /** Starts making the spare; only the first call does anything. */
  start(make: () => Promise<Spare>): void {
    if (this.started) return;
    this.started = true;
    this.pending = make().catch(() => undefined);
  }

  /**
   * The spare, to one caller only; resolves undefined when none was made, it failed, or its browser
   * or page is gone (what is left of it is then closed).
   */
  take(): Promise<Spare | undefined> {
    return this.claim().then((spare) => {
      if (spare) spareStats.taken++;
      return spare;
    });
  }

  private claim(): Promise<Spare | undefined> {
    // A session that comes before the spare was started makes its own context, and no spare is made
    // after it: two contexts made at once would each wait for the other's renderer.
    this.started = true;
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return Promise.resolve(undefined);
    return pending.then(async (spare) => {
      if (!spare) return undefined;
      const { lease, page } = spare.opened;
      if (lease.browser.isConnected() && page !== undefined && !page.isClosed()) return spare;
      await discardSpare(spare);
      return undefined;
    });
  }

  /** {@link take}, within a call's deadline: a spare that arrives after it is closed. */
  async takeWithin(deadline: Deadline, signal: AbortSignal | undefined): Promise<Spare | undefined> {
    const taking = this.take();
    try {
      return await withDeadline(taking, deadline, signal);
    } catch (error) {
      void taking.then((late) => (late ? discardSpare(late) : undefined));
      throw error;
    }
  }

  /** Closes a spare nobody took (shutdown). */
  async close(): Promise<void> {
    const spare = await this.claim();
    if (spare) await discardSpare(spare);
  }
}

/** A context with the server's defaults, its first page and its own URL guard. */
export async function makeSpare(maker: ContextMaker): Promise<Spare> {
  const { provider, urlPolicy, defaults } = maker;
  const urlGuard = await openSessionGuard(provider, urlPolicy, !!defaults.operator.proxy);
  try {
    const input = contextInputOf(maker, urlGuard, resolveContextSettings(defaults.settings), undefined);
    const opened = await openContext({ ...input, timeoutMs: maker.timeoutMs }, () => maker.shuttingDown());
    spareStats.made++;
    return { urlGuard, opened };
  } catch (error) {
    await urlGuard.close().catch(() => undefined);
    throw error;
  }
}

/** Closes a spare's context and its guard. */
export async function discardSpare(spare: Spare): Promise<void> {
  spareStats.discarded++;
  await spare.opened.discard();
  await spare.urlGuard.close().catch(() => undefined);
}
