import type { Config } from '../config/load.js';
import { BrowserMeshError, ErrorCodes, safeId } from '../errors.js';
import { effectiveSettings, resolveContextSettings } from './context-settings.js';
import { watchAbort } from './abort-watch.js';
import { ActivityLog } from './activity.js';
import { Deadline } from './deadline.js';
import { toBrowserError } from './browser-errors.js';
import { withDeadline } from './race.js';
import { buildSession } from './session-build.js';
import {
  contextInputOf,
  makeSpare,
  SpareContext,
  wantsDefaults,
  type ContextMaker,
  type Spare,
} from './spare-context.js';
import { newId } from './ids.js';
import { silentLogger, type Logger } from './logger.js';
import type { ManagedPage, PageInfo } from './page.js';
import { createProvider } from './providers/index.js';
import type { BrowserProvider } from './providers/provider.js';
import { Session, type PageHook, type SessionInfo } from './session.js';
import { sessionDefaultsFromConfig, type SessionDefaults } from './session-defaults.js';
import { PrincipalQuota } from './principal-quota.js';
import { urlPolicyFromConfig, type SessionUrlGuard, type UrlPolicy } from '../url-policy/index.js';
import { checkSharedProfileInput, openSessionGuard } from './shared-profile.js';
import { FileQuotaPool, SessionFiles } from './files/session-files.js';
import type { DownloadNote } from './files/downloads.js';
import { runtimeInfoOf } from './runtime-info.js';
import { traceOf } from './tracing.js';
import { secretsFor } from '../config/principal-secrets.js';
import type {
  CallOptions,
  CreateSessionInput,
  OperationContext,
  PageOperationContext,
  RuntimeInfo,
  RuntimeOptions,
} from './runtime-types.js';

export type {
  CallOptions,
  CreateSessionInput,
  OperationContext,
  PageOperationContext,
  RuntimeInfo,
  RuntimeOptions,
} from './runtime-types.js';

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
  /** Checked on every request a session's browser makes (see SessionUrlGuard). */
  readonly urlPolicy: UrlPolicy;
  private readonly sessions = new Map<string, Session>();
  private readonly owners = new Map<string, string>();
  /** sessionId → principal, for per-principal quotas and counts (HTTP). */
  private readonly principals: PrincipalQuota;
  private readonly pageHooks: PageHook[];
  private readonly defaults: SessionDefaults;
  private creating = 0;
  /** Bytes of every session's files together (downloads, PDFs, traces, recordings). */
  readonly fileQuota: FileQuotaPool;
  private shuttingDown: Promise<void> | undefined;
  private readonly spare = new SpareContext();

  constructor(options: RuntimeOptions) {
    this.config = options.config;
    this.logger = options.logger ?? silentLogger;
    this.provider = options.provider ?? createProvider(options.config, this.logger);
    this.pageHooks = [...(options.pageHooks ?? [])];
    this.defaults = sessionDefaultsFromConfig(options.config);
    this.urlPolicy = urlPolicyFromConfig(options.config);
    this.principals = new PrincipalQuota(
      options.config.maxSessionsPerPrincipal,
      (id) => this.sessions.get(id)?.state,
    );
    this.fileQuota = new FileQuotaPool(options.config.totalFileQuotaBytes);
  }

  /**
   * Launches the local browser in the background so the first session does not wait for it (the
   * MCP server calls this once a client has initialized). Never throws; a failed launch is retried
   * and reported by the first session. Resolves once the launch ended, either way.
   */
  warmUp(): Promise<void> {
    if (this.shuttingDown || !this.provider.warmUp) return Promise.resolve();
    return this.provider.warmUp(this.config.timeoutMs).then(() => {
      // Only once this provider's own launch succeeded: the spare must never start a launch itself.
      if (!this.shuttingDown && this.provider.status().state === 'ready' && !this.provider.sharedUrlGuard)
        this.spare.start(() => makeSpare(this.maker));
    });
  }

  private get maker(): ContextMaker {
    return {
      provider: this.provider,
      defaults: this.defaults,
      urlPolicy: this.urlPolicy,
      logger: this.logger,
      timeoutMs: this.config.timeoutMs,
      sessions: () => this.sessions.values(),
      shuttingDown: () => !!this.shuttingDown,
    };
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
    // Resolved before anything is allocated: an unknown device preset is refused here.
    const shared = this.provider.sharedUrlGuard !== undefined;
    const own = shared ? checkSharedProfileInput(input) : input.contextSettings;
    const settings = resolveContextSettings(this.defaults.settings, own);
    const principal = options.principal;
    if (principal !== undefined) this.principals.reserve(principal);
    this.creating++;
    let createdId: string | undefined;
    let urlGuard: SessionUrlGuard;
    let spare: Spare | undefined;
    try {
      spare =
        shared || !wantsDefaults(input) ? undefined : await this.spare.takeWithin(deadline, options.signal);
      urlGuard =
        spare?.urlGuard ??
        (await openSessionGuard(this.provider, this.urlPolicy, !!this.defaults.operator.proxy));
    } catch (error) {
      this.creating--;
      if (principal !== undefined) this.principals.settle(principal, undefined);
      throw toBrowserError(error, 'Could not start the URL guard');
    }
    const session = new Session({
      urlGuard,
      name: input.name ?? null,
      metadata: input.metadata ?? {},
      maxPages: this.config.maxPages,
      maxQueuedOps: this.config.maxQueuedOps,
      logger: this.logger,
      pageHooks: this.pageHooks,
      contextSettings: effectiveSettings(settings),
      stateId: input.storageState?.id ?? null,
      secrets: secretsFor(this.config, principal),
      ...(shared && own?.viewport ? { viewport: own.viewport } : {}),
      createFiles: (sessionId) =>
        new SessionFiles({
          root: this.config.dataDir,
          sessionId,
          quotaBytes: this.config.sessionFileQuotaBytes,
          total: this.fileQuota,
        }),
    });
    try {
      const initialPage = await buildSession(
        {
          ...contextInputOf(this.maker, urlGuard, settings, input.storageState?.state),
          session,
          deadline,
          signal: options.signal,
        },
        spare?.opened,
      );
      if (settings.trace) await traceOf(session).start();
      this.sessions.set(session.id, session);
      if (options.owner !== undefined) this.owners.set(session.id, options.owner);
      createdId = session.id;
      this.logger.info('session_created', {
        sessionId: session.id,
        operationId: options.operationId,
        provider: session.browserLease?.placement.provider,
      });
      this.activity.touch();
      return { session: session.toInfo(), initialPage: initialPage.toInfo() };
    } catch (error) {
      throw toBrowserError(error, 'Could not create the session');
    } finally {
      this.creating--;
      if (principal !== undefined) this.principals.settle(principal, createdId);
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
      throw new BrowserMeshError(ErrorCodes.SESSION_NOT_FOUND, `No session ${safeId(sessionId)}`, {
        details: { sessionId: safeId(sessionId) },
        recoveryHint: 'Call browser_session_list, or create one with browser_session_create.',
      });
    }
    return session;
  }

  /** The client that created the session (HTTP transport), or undefined when it has none. */
  ownerOf(sessionId: string): string | undefined {
    return this.owners.get(sessionId);
  }

  /** The principal (HTTP token) that created the session, or undefined when it has none. */
  principalOf(sessionId: string): string | undefined {
    return this.principals.principalOf(sessionId);
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
    return this.runQueued(sessionId, undefined, op, fn, options);
  }

  /**
   * The queued call path. An abort (cancel, deadline, close) interrupts the browser work on the
   * operation's page, or on every page of the session when the operation names none.
   */
  private runQueued<T>(
    sessionId: string,
    pageId: string | undefined,
    op: string,
    fn: (ctx: OperationContext) => Promise<T>,
    options: CallOptions,
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
          session.downloads.begin(operationId);
          const pages = (): ManagedPage[] => session.pagesFor(pageId);
          const stopWatching = watchAbort(signal, pages, options.signal);
          try {
            return await traceOf(session).group(`${options.tool ?? op} · ${operationId}`, () =>
              fn({ operationId, session, deadline, signal, config: this.config, logger: this.logger }),
            );
          } finally {
            stopWatching();
            await session.downloads.end(operationId, deadline.remainingMs());
          }
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
    return this.runQueued(
      sessionId,
      pageId,
      op,
      (ctx) => fn({ ...ctx, page: ctx.session.getPage(pageId) }),
      options,
    );
  }

  /** The downloads the operation `operationId` caused (reported once; browser_files lists them all). */
  takeDownloads(sessionId: string, operationId: string, options: CallOptions = {}): DownloadNote[] {
    return this.sessions.get(sessionId) && this.visible(sessionId, options.owner)
      ? (this.sessions.get(sessionId)?.downloads.take(operationId) ?? [])
      : [];
  }

  /** With a principal (HTTP), counts and the limit are that principal's only: others stay invisible. */
  runtimeInfo(options: CallOptions = {}): RuntimeInfo {
    const source = {
      config: this.config,
      provider: this.provider,
      sessions: this.sessions.values(),
      principalOf: (id: string) => this.principals.principalOf(id),
      urlPolicyActive: this.urlPolicy.active,
      operatorProxy: this.defaults.operator.proxy !== undefined,
    };
    return runtimeInfoOf(source, options.principal);
  }

  /**
   * Ends the shared browser while no session is open or being created (the shell daemon does so when
   * its last session closes); a later session obtains a new one. Whether it did.
   */
  async releaseIdleBrowser(): Promise<boolean> {
    if (this.shuttingDown || this.creating > 0 || this.liveCount() > 0 || !this.provider.releaseIdle)
      return false;
    // A spare nobody took goes with the browser (its guard too); none is made again.
    await Promise.all([this.spare.close(), this.provider.releaseIdle()]);
    return true;
  }

  /** Closes every session, then the browser (only if BrowserMesh launched it). Idempotent. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      await Promise.allSettled([...this.sessions.values()].map((session) => session.close()));
      // Closing the browser also ends a spare still being made, which then closes its guard.
      await Promise.all([this.spare.close(), this.provider.shutdown()]);
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

  private pruneTombstones(): void {
    const closed = [...this.sessions.values()].filter((s) => s.state === 'closed');
    for (const session of closed.slice(0, Math.max(0, closed.length - MAX_TOMBSTONES))) {
      this.sessions.delete(session.id);
      this.owners.delete(session.id);
      this.principals.forget(session.id);
    }
  }
}

/** Re-exported: operations race their own steps against the same deadline and translate errors the same way. */
export { toBrowserError, withDeadline };
