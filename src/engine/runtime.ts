import type { Browser } from 'playwright-core';
import type { Config } from '../config/load.js';
import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../errors.js';
import { ActivityLog } from './activity.js';
import { toContextOptions, effectiveSettings, type ContextSettings } from './context-settings.js';
import { Deadline } from './deadline.js';
import { newId } from './ids.js';
import { silentLogger, type Logger } from './logger.js';
import type { ManagedPage, PageInfo } from './page.js';
import { createProvider } from './providers/index.js';
import type { BrowserLease, BrowserProvider, ProviderStatus } from './providers/provider.js';
import { Session, type PageHook, type SessionInfo } from './session.js';
import { FileQuotaPool, SessionFiles } from './session-files.js';
import { traceOf } from './tracing.js';
import { VERSIONS } from './versions.js';

export interface CallOptions {
  /** One absolute deadline from acceptance (queue wait included). Defaults to the configured timeout. */
  timeoutMs?: number | undefined;
  /** Cancels the operation: skipped if still queued, aborted if running. */
  signal?: AbortSignal | undefined;
  /** Correlation id; generated when absent. */
  operationId?: string | undefined;
  /** The client that owns the sessions (HTTP transport); sessions of another owner are invisible. */
  owner?: string | undefined;
  /** The tool this call serves, as named in a session's trace (defaults to the operation name). */
  tool?: string | undefined;
}

export interface OperationContext {
  operationId: string;
  session: Session;
  deadline: Deadline;
  signal: AbortSignal;
  config: Config;
  logger: Logger;
}

export interface PageOperationContext extends OperationContext {
  page: ManagedPage;
}

export interface CreateSessionInput {
  name?: string | undefined;
  metadata?: Record<string, string> | undefined;
  contextSettings?: ContextSettings | undefined;
  /** Resolved saved state (cookies, origins) and the logical id it came from. */
  storageState?:
    | {
        id: string;
        state: Exclude<import('playwright-core').BrowserContextOptions['storageState'], string | undefined>;
      }
    | undefined;
}

export interface RuntimeOptions {
  config: Config;
  logger?: Logger;
  provider?: BrowserProvider;
  pageHooks?: PageHook[];
}

const MAX_TOMBSTONES = 1000;

/**
 * The multi-session runtime. Every face (MCP server, AgentBrowser, code mode, library users) calls
 * into this class; it knows nothing about MCP or schemas. No global current session or page:
 * every call names its session, every page operation its page.
 */
export class BrowserMesh {
  readonly config: Config;
  readonly logger: Logger;
  /** Recent tool calls and session changes, for watchers such as the live dashboard. */
  readonly activity = new ActivityLog();
  private readonly provider: BrowserProvider;
  private readonly sessions = new Map<string, Session>();
  private readonly owners = new Map<string, string>();
  private readonly pageHooks: PageHook[];
  private readonly watchedBrowsers = new WeakSet<Browser>();
  private creating = 0;
  /** Bytes of every session's files together (downloads, PDFs, traces, recordings). */
  readonly fileQuota: FileQuotaPool;
  private shuttingDown: Promise<void> | undefined;

  constructor(options: RuntimeOptions) {
    this.config = options.config;
    this.logger = options.logger ?? silentLogger;
    this.provider = options.provider ?? createProvider(options.config, this.logger);
    this.pageHooks = [...(options.pageHooks ?? [])];
    this.fileQuota = new FileQuotaPool(options.config.totalFileQuotaBytes);
  }

  /** Registers a hook run for every page adopted from now on (observability, dialogs, …). */
  addPageHook(hook: PageHook): void {
    this.pageHooks.push(hook);
  }

  async createSession(
    input: CreateSessionInput = {},
    options: CallOptions = {},
  ): Promise<{ session: SessionInfo; initialPage: PageInfo }> {
    if (this.shuttingDown)
      throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The runtime is shutting down');
    const deadline = new Deadline(options.timeoutMs ?? this.config.timeoutMs);
    if (this.liveCount() + this.creating >= this.config.maxSessions) {
      throw new BrowserMeshError(
        ErrorCodes.LIMIT_EXCEEDED,
        `At most ${this.config.maxSessions} sessions may be live`,
        {
          details: { limit: this.config.maxSessions, field: 'maxSessions' },
          recoveryHint: 'Close a session you no longer need with browser_session_close.',
        },
      );
    }
    this.creating++;
    const settings = input.contextSettings ?? {};
    const session = new Session({
      name: input.name ?? null,
      metadata: input.metadata ?? {},
      maxPages: this.config.maxPages,
      logger: this.logger,
      pageHooks: this.pageHooks,
      contextSettings: effectiveSettings(settings),
      stateId: input.storageState?.id ?? null,
      createFiles: (sessionId) =>
        new SessionFiles({
          root: this.config.dataDir,
          sessionId,
          quotaBytes: this.config.sessionFileQuotaBytes,
          total: this.fileQuota,
        }),
    });
    const acquiring = this.provider.acquire({ timeoutMs: deadline.stepTimeoutMs(), signal: options.signal });
    let lease: BrowserLease | undefined;
    try {
      lease = await withDeadline(acquiring, deadline, options.signal);
      this.watch(lease.browser);
      const context = await lease.browser.newContext({
        ...toContextOptions(settings),
        ...(input.storageState ? { storageState: input.storageState.state } : {}),
      });
      for (const grant of settings.permissions ?? []) {
        await context.grantPermissions([grant.permission], { origin: grant.origin });
      }
      const initialPage = await session.attach(context, lease);
      if (settings.trace) await traceOf(session).start();
      this.sessions.set(session.id, session);
      if (options.owner !== undefined) this.owners.set(session.id, options.owner);
      this.logger.info('session_created', {
        sessionId: session.id,
        operationId: options.operationId,
        provider: lease.placement.provider,
      });
      this.activity.touch();
      return { session: session.toInfo(), initialPage: initialPage.toInfo() };
    } catch (error) {
      await session.close().catch(() => undefined);
      // A lease the session never took (or one that arrives after the deadline) is still given
      // back: a remote provider's slot must not leak.
      if (lease && session.browserLease !== lease) await lease.release().catch(() => undefined);
      if (!lease)
        acquiring
          .then(
            (late) => late.release(),
            () => undefined,
          )
          .catch(() => undefined);
      throw toBrowserError(error, 'Could not create the session');
    } finally {
      this.creating--;
    }
  }

  listSessions(options: CallOptions = {}): SessionInfo[] {
    return [...this.sessions.values()]
      .filter((session) => this.visible(session.id, options.owner))
      .map((session) => session.toInfo());
  }

  /** The session with this id; SESSION_NOT_FOUND when unknown or owned by another client. */
  getSession(sessionId: string, options: CallOptions = {}): Session {
    const session = this.sessions.get(sessionId);
    if (!session || !this.visible(sessionId, options.owner)) {
      throw new BrowserMeshError(ErrorCodes.SESSION_NOT_FOUND, `No session ${sessionId}`, {
        details: { sessionId },
        recoveryHint: 'Call browser_session_list, or create one with browser_session_create.',
      });
    }
    return session;
  }

  /** The client that created the session (HTTP transport), or undefined when it has none. */
  ownerOf(sessionId: string): string | undefined {
    return this.owners.get(sessionId);
  }

  /** Idempotent: closing a closing/closed/failed session succeeds; an unknown id is SESSION_NOT_FOUND. */
  async closeSession(
    sessionId: string,
    options: CallOptions = {},
  ): Promise<{ session: SessionInfo; alreadyClosed: boolean }> {
    const session = this.getSession(sessionId, options);
    const alreadyClosed = session.state === 'closed' || session.state === 'closing';
    await session.close();
    this.pruneTombstones();
    this.activity.touch();
    return { session: session.toInfo(), alreadyClosed };
  }

  /** Closes every session created by `owner` (an HTTP client that went away); returns how many. */
  async closeSessionsOf(owner: string): Promise<number> {
    const ids = [...this.owners].filter(([, sessionOwner]) => sessionOwner === owner).map(([id]) => id);
    const sessions: Session[] = [];
    for (const id of ids) {
      const session = this.sessions.get(id);
      if (session && session.state !== 'closed') sessions.push(session);
    }
    await Promise.allSettled(sessions.map((session) => session.close()));
    this.pruneTombstones();
    this.activity.touch();
    return sessions.length;
  }

  /** Runs `fn` on the session's serial queue under one absolute deadline. */
  run<T>(
    sessionId: string,
    op: string,
    fn: (ctx: OperationContext) => Promise<T>,
    options: CallOptions = {},
  ): Promise<T> {
    const operationId = options.operationId ?? newId('op');
    const deadline = new Deadline(options.timeoutMs ?? this.config.timeoutMs);
    let session: Session;
    try {
      session = this.getSession(sessionId, options);
      session.assertUsable();
    } catch (error) {
      return Promise.reject(error);
    }
    const started = Date.now();
    return session.queue
      .enqueue(
        async ({ signal }) => {
          session.assertUsable();
          return traceOf(session).group(`${options.tool ?? op} · ${operationId}`, () =>
            fn({ operationId, session, deadline, signal, config: this.config, logger: this.logger }),
          );
        },
        { deadline, signal: options.signal },
      )
      .then(
        (value) => {
          this.logger.debug('operation_done', {
            operationId,
            sessionId,
            op,
            durationMs: Date.now() - started,
          });
          return value;
        },
        (error: unknown) => {
          const mapped = toBrowserError(error, `${op} failed`);
          this.logger.debug('operation_failed', {
            operationId,
            sessionId,
            op,
            durationMs: Date.now() - started,
            code: mapped.code,
          });
          throw mapped;
        },
      );
  }

  /** Like `run`, for an operation on one page of the session (a pageId of another session is refused). */
  runOnPage<T>(
    sessionId: string,
    pageId: string,
    op: string,
    fn: (ctx: PageOperationContext) => Promise<T>,
    options: CallOptions = {},
  ): Promise<T> {
    return this.run(sessionId, op, (ctx) => fn({ ...ctx, page: ctx.session.getPage(pageId) }), options);
  }

  runtimeInfo(): RuntimeInfo {
    const all = [...this.sessions.values()];
    return {
      versions: { ...VERSIONS },
      browser: this.provider.status(),
      sessions: {
        live: all.filter((s) => s.state === 'ready' || s.state === 'closing').length,
        failed: all.filter((s) => s.state === 'failed').length,
        max: this.config.maxSessions,
      },
    };
  }

  /** Closes every session, then the browser (only if BrowserMesh launched it). Idempotent. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      await Promise.allSettled([...this.sessions.values()].map((session) => session.close()));
      await this.provider.shutdown();
    })();
    return this.shuttingDown;
  }

  private liveCount(): number {
    let count = 0;
    for (const session of this.sessions.values())
      if (session.state === 'ready' || session.state === 'closing') count++;
    return count;
  }

  private visible(sessionId: string, owner: string | undefined): boolean {
    const sessionOwner = this.owners.get(sessionId);
    return sessionOwner === undefined || owner === undefined || sessionOwner === owner;
  }

  /** When a browser disconnects, the sessions on it fail; new sessions get a new browser. */
  private watch(browser: Browser): void {
    if (this.watchedBrowsers.has(browser)) return;
    this.watchedBrowsers.add(browser);
    browser.on('disconnected', () => {
      const error = new BrowserMeshError(ErrorCodes.BROWSER_DISCONNECTED, 'The browser disconnected');
      for (const session of this.sessions.values()) {
        if (session.browserLease?.browser === browser) session.markFailed(error);
      }
      if (!this.shuttingDown) this.logger.warn('browser_disconnected', { reason: 'disconnected' });
    });
  }

  private pruneTombstones(): void {
    const closed = [...this.sessions.values()].filter((s) => s.state === 'closed');
    for (const session of closed.slice(0, Math.max(0, closed.length - MAX_TOMBSTONES))) {
      this.sessions.delete(session.id);
      this.owners.delete(session.id);
    }
  }
}

export interface RuntimeInfo {
  versions: { browsermesh: string; playwright: string; node: string };
  browser: ProviderStatus;
  sessions: { live: number; failed: number; max: number };
}

/** Races a promise against the deadline and the caller's signal (the promise itself keeps running). */
export function withDeadline<T>(promise: Promise<T>, deadline: Deadline, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void =>
      finish(() =>
        reject(new BrowserMeshError(ErrorCodes.OPERATION_CANCELLED, 'Operation was cancelled by the caller')),
      );
    const timer = setTimeout(() => finish(() => deadline.check()), deadline.remainingMs());
    let done = false;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      try {
        settle();
      } catch (error) {
        reject(error);
      }
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

/** Playwright errors are translated in one place: their text may quote the page, so it is dropped. */
export function toBrowserError(error: unknown, message: string): BrowserMeshError {
  if (isBrowserMeshError(error)) return error;
  const text = error instanceof Error ? error.message : '';
  if (/Browser has been closed|browser has disconnected/i.test(text)) {
    return new BrowserMeshError(ErrorCodes.BROWSER_DISCONNECTED, `${message}: the browser went away`, {
      cause: error,
    });
  }
  if (/Target page, context or browser has been closed|Target closed/i.test(text)) {
    return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, `${message}: the page was closed`, {
      cause: error,
      details: { reason: 'target_closed' },
    });
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new BrowserMeshError(ErrorCodes.OPERATION_TIMEOUT, `${message}: the deadline passed`, {
      cause: error,
    });
  }
  return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, message, { cause: error });
}
