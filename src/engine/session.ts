import type { BrowserContext, Page } from 'playwright-core';
import { BrowserMeshError, ErrorCodes, safeId } from '../errors.js';
import { newId } from './ids.js';
import type { Logger } from './logger.js';
import { ManagedPage, type PageInfo } from './page.js';
import type { BrowserLease, Placement } from './providers/provider.js';
import { closeTargets, interruptPage, settleWithin } from './interrupt.js';
import { SerialQueue } from './queue.js';
import type { SessionUrlGuard } from '../url-policy/index.js';

/** Each step of a close (drain, context close, forced close) waits at most this long. */
const CLOSE_STEP_MS = 2_000;
/** Saving a trace or a recording at close may take longer than a step, never unbounded. */
const CLOSE_HOOKS_MS = 10_000;
const NO_SECRETS: Secrets = {};
import { DownloadTracker } from './files/downloads.js';
import type { SessionFiles } from './files/session-files.js';
import type { Secrets } from '../secrets.js';

export type SessionState = 'ready' | 'closing' | 'closed' | 'failed';

/** Called for every page a session adopts (its own, popups, target=_blank), before anything runs on it. */
export type PageHook = (page: ManagedPage, session: Session) => void;

export interface SessionInit {
  name: string | null;
  metadata: Record<string, string>;
  maxPages: number;
  /** Operations queued or running at once before LIMIT_EXCEEDED. */
  maxQueuedOps: number;
  logger: Logger;
  pageHooks: readonly PageHook[];
  contextSettings: Record<string, unknown>;
  stateId: string | null;
  /** The URL policy for this session's requests (and its guard proxy, closed with the session). */
  urlGuard?: SessionUrlGuard;
  /** The viewport of every page of a session that shares a persistent profile's context. */
  viewport?: { width: number; height: number };
  /**
   * The secrets this session may use and is redacted by: its principal's (server-wide plus its own
   * over HTTP, src/config/principal-secrets.ts); none when absent.
   */
  secrets?: Secrets;
  /** Builds the session's private file folder (downloads, PDFs, traces, recordings) from its id. */
  createFiles: (sessionId: string) => SessionFiles;
}

export interface SessionInfo {
  sessionId: string;
  name: string | null;
  metadata: Record<string, string>;
  state: SessionState;
  failureCode: string | null;
  createdAt: string;
  pageCount: number;
  placement: Placement | null;
  contextSettings: Record<string, unknown>;
  stateId: string | null;
}

/**
 * One isolated browser session: its own non-persistent BrowserContext, its own pages and its own
 * serial queue. Nothing here is shared with another session — except under `--user-data-dir`, where
 * every session opens its pages in the persistent profile's one context (see shared-profile.ts).
 */
export class Session {
  readonly id = newId('s');
  readonly createdAt = new Date();
  readonly queue: SerialQueue;
  private currentState: SessionState = 'ready';
  private failure: BrowserMeshError | undefined;
  private context: BrowserContext | undefined;
  private lease: BrowserLease | undefined;
  private readonly pages = new Map<string, ManagedPage>();
  private readonly byPlaywrightPage = new WeakMap<Page, ManagedPage>();
  private closing: Promise<void> | undefined;
  /** Popups closed because the page limit was reached, for the next operation to report. */
  refusedPopups = 0;
  /** The session's own quota-bound folder; disposed (deleted unless kept) when the session closes. */
  readonly files: SessionFiles;
  /** A viewport set on an open page (browser_set_viewport), applied to every page opened after it. */
  private viewport: { width: number; height: number } | undefined;
  /** Saves the pages' downloads into `files` and ties each to the operation that caused it. */
  readonly downloads: DownloadTracker;
  /** While a stuck page is being replaced, pages the context announces (see replaceStuckPage). */
  private holdPopups: Page[] | undefined;
  /** Run once the queue has drained and before the context closes (finish traces and recordings). */
  private readonly closeHooks = new Set<() => Promise<void>>();

  constructor(private readonly init: SessionInit) {
    this.queue = new SerialQueue({ maxLength: init.maxQueuedOps });
    this.viewport = init.viewport;
    this.files = init.createFiles(this.id);
    this.downloads = new DownloadTracker(this.files, init.logger);
  }

  /** The secrets `{{secret:NAME}}` resolves against here, and every output of it is redacted by. */
  get secrets(): Secrets {
    return this.init.secrets ?? NO_SECRETS;
  }

  get state(): SessionState {
    return this.currentState;
  }

  get browserContext(): BrowserContext {
    if (!this.context) throw this.unavailableError();
    return this.context;
  }

  /** The URL policy this session's navigations are checked against; undefined when none applies. */
  get urlGuard(): SessionUrlGuard | undefined {
    return this.init.urlGuard;
  }

  get browserLease(): BrowserLease | undefined {
    return this.lease;
  }

  /** Binds the context and lease and adopts its first page (`made`, or a new one) as the default page. */
  async attach(context: BrowserContext, lease: BrowserLease, made?: Page): Promise<ManagedPage> {
    this.context = context;
    this.lease = lease;
    const page = made ?? (await context.newPage());
    const initial = this.adopt(page, true);
    if (this.viewport) await page.setViewportSize(this.viewport);
    // Registered after the initial page exists, so that page is never mistaken for a popup. A
    // shared context's pages belong to many sessions: there, each page's own popups are adopted.
    if (!this.sharesContext) context.on('page', (popup) => this.adoptPopup(popup));
    return initial;
  }

  /** Whether the context is a persistent profile's, shared with other sessions (never closed here). */
  get sharesContext(): boolean {
    return this.lease?.sharedContext !== undefined;
  }

  /** Throws unless the session accepts operations. */
  assertUsable(): void {
    if (this.currentState !== 'ready') throw this.unavailableError();
  }

  getPage(pageId: string): ManagedPage {
    const page = this.pages.get(pageId);
    if (!page || page.isClosed) {
      throw new BrowserMeshError(
        ErrorCodes.PAGE_NOT_FOUND,
        `No page ${safeId(pageId)} in session ${this.id}`,
        {
          details: { pageId: safeId(pageId), sessionId: this.id },
          recoveryHint: 'Call browser_page_list for this session to see its pages.',
        },
      );
    }
    return page;
  }

  listPages(): ManagedPage[] {
    return [...this.pages.values()].filter((page) => !page.isClosed);
  }

  /** The pages an operation works on: the one it names, else all of the session's. */
  pagesFor(pageId: string | undefined): ManagedPage[] {
    const pages = this.listPages();
    return pageId === undefined ? pages : pages.filter((page) => page.id === pageId);
  }

  findPage(page: Page): ManagedPage | undefined {
    return this.byPlaywrightPage.get(page);
  }

  async createPage(): Promise<ManagedPage> {
    this.assertUsable();
    if (this.listPages().length >= this.init.maxPages) throw pageLimitError(this.init.maxPages);
    const page = await this.browserContext.newPage();
    const managed = this.adopt(page, false);
    if (this.viewport) await page.setViewportSize(this.viewport);
    return managed;
  }

  /** The viewport for pages opened from now on (the open page was resized by the caller). */
  setViewport(size: { width: number; height: number }): void {
    this.viewport = { ...size };
  }

  /** Bounded whatever the page does: a page that does not close in time is closed by the browser. */
  async closePage(pageId: string): Promise<void> {
    const page = this.getPage(pageId);
    if (!(await settleWithin(page.page.close(), CLOSE_STEP_MS)) && this.lease) {
      this.init.logger.warn('page_close_forced', { sessionId: this.id, pageId });
      await closeTargets(this.lease.browser, [page]);
    }
    this.pages.delete(pageId);
  }

  /**
   * Registers work that must run while the context is still open when the session closes (a trace
   * or a recording is saved into the session's folder). Returns the unregister function.
   */
  onBeforeClose(hook: () => Promise<void>): () => void {
    this.closeHooks.add(hook);
    return () => void this.closeHooks.delete(hook);
  }

  /**
   * closing → fail queued work and interrupt running work → drain → close pages and context →
   * remove the session's files (unless `keepFiles`) → closed. Bounded whatever the pages do (a few
   * seconds at most): queued operations fail at once with SESSION_CLOSED, the running one is aborted
   * and its page's loading and script are stopped, and pages the context cannot close are closed by
   * the browser process. Repeat calls share one close.
   */
  close(options: { keepFiles?: boolean } = {}): Promise<void> {
    this.closing ??= this.closeBounded(options.keepFiles === true);
    return this.closing;
  }

  private async closeBounded(keepFiles: boolean): Promise<void> {
    if (this.currentState === 'ready') this.currentState = 'closing';
    const pages = this.listPages();
    this.queue.failAll(() => this.unavailableError());
    await Promise.all(pages.map((page) => interruptPage(page, true)));
    await settleWithin(this.queue.drain(), CLOSE_STEP_MS);
    // Traces and recordings are saved while the context is still open; bounded like every step.
    const hooks = [...this.closeHooks].map((hook) => hook().catch(() => undefined));
    await settleWithin(Promise.all(hooks), CLOSE_HOOKS_MS);
    const context = this.context;
    if (context && this.sharesContext) await this.closeOwnPages(pages);
    else if (context && !(await settleWithin(context.close(), CLOSE_STEP_MS))) {
      this.init.logger.warn('session_close_forced', { sessionId: this.id });
      if (this.lease) await closeTargets(this.lease.browser, pages);
      await settleWithin(context.close(), CLOSE_STEP_MS);
    }
    await settleWithin(this.lease?.release() ?? Promise.resolve(), CLOSE_STEP_MS);
    await settleWithin(this.init.urlGuard?.close() ?? Promise.resolve(), CLOSE_STEP_MS);
    this.pages.clear();
    this.context = undefined;
    await settleWithin(this.files.dispose({ keepAll: keepFiles }), CLOSE_STEP_MS);
    if (this.currentState === 'closing') this.currentState = 'closed';
    this.init.logger.info('session_closed', { sessionId: this.id });
  }

  /** In a shared context only this session's pages close; the context and the others stay. */
  private async closeOwnPages(pages: ManagedPage[]): Promise<void> {
    const all = [...new Set([...pages, ...this.listPages()])];
    const closed = await settleWithin(Promise.all(all.map((page) => page.page.close())), CLOSE_STEP_MS);
    if (!closed && this.lease) {
      this.init.logger.warn('session_close_forced', { sessionId: this.id });
      await closeTargets(this.lease.browser, all);
    }
  }

  /**
   * The browser went away: fail everything, never recreate silently. The lease is released at once
   * (a remote slot such as a Grid session is given back); a closing session just finishes closing,
   * since closing is what ends its connection.
   */
  markFailed(error: BrowserMeshError): void {
    if (this.currentState !== 'ready') return;
    this.currentState = 'failed';
    this.failure = error;
    this.queue.failAll(() => this.unavailableError());
    this.pages.clear();
    this.lease?.release().catch(() => undefined);
    this.init.urlGuard?.close().catch(() => undefined);
    this.init.logger.warn('session_failed', { sessionId: this.id, code: error.code });
  }

  toInfo(): SessionInfo {
    return {
      sessionId: this.id,
      name: this.init.name,
      metadata: { ...this.init.metadata },
      state: this.currentState,
      failureCode: this.failure?.code ?? null,
      createdAt: this.createdAt.toISOString(),
      pageCount: this.listPages().length,
      placement: this.lease?.placement ?? null,
      contextSettings: this.init.contextSettings,
      stateId: this.init.stateId,
    };
  }

  pageInfos(): PageInfo[] {
    return this.listPages().map((page) => page.toInfo());
  }

  /**
   * Last resort for a page that cannot be navigated away from (a loop that comes back after every
   * termination holds the old document's renderer, so the navigation never commits): its target is
   * closed by the browser and a fresh page takes its place under the same id. Its history, dialogs
   * and console belonged to the old target and are gone; the caller navigates the fresh page.
   */
  async replaceStuckPage(managed: ManagedPage): Promise<void> {
    this.assertUsable();
    const old = managed.page;
    // Closed first, so the fresh page cannot share the stuck renderer process.
    if (!(await settleWithin(old.close({ runBeforeUnload: false }), CLOSE_STEP_MS)) && this.lease)
      await closeTargets(this.lease.browser, [managed]);
    this.init.logger.warn('page_replaced', { sessionId: this.id, pageId: managed.id });
    // The context announces the fresh page before newPage() resolves: pages announced meanwhile are
    // held, and adopted as popups afterwards unless they are the fresh page itself.
    const held: Page[] = [];
    this.holdPopups = held;
    let fresh: Page;
    try {
      fresh = await this.browserContext.newPage();
    } finally {
      this.holdPopups = undefined;
    }
    managed.rebind(fresh);
    this.wire(managed);
    for (const page of held) if (page !== fresh) this.adoptPopup(page);
    if (this.viewport) await fresh.setViewportSize(this.viewport);
  }

  private adopt(page: Page, isDefault: boolean): ManagedPage {
    const known = this.byPlaywrightPage.get(page);
    if (known) return known;
    const managed = new ManagedPage(newId('p'), this.id, page, isDefault, null);
    this.wire(managed);
    return managed;
  }

  /** Registers a managed page's current Playwright page and runs the page hooks on it. */
  private wire(managed: ManagedPage): void {
    const page = managed.page;
    this.byPlaywrightPage.set(page, managed);
    this.pages.set(managed.id, managed);
    page.once('close', () => {
      if (managed.page === page) this.pages.delete(managed.id);
    });
    // Attached now, while the renderer answers: interrupting a page stuck in a loop later needs a
    // session that already exists (attaching one then waits for the busy renderer).
    managed.cdp().catch(() => undefined);
    page.on('download', (download) => this.downloads.capture(download));
    page.on('request', (request) => this.downloads.watchRequest(request));
    if (this.sharesContext) page.on('popup', (popup) => this.adoptPopup(popup));
    for (const hook of this.init.pageHooks) hook(managed, this);
  }

  /** Pages the page itself opened (window.open, target=_blank) become managed pages, within the limit. */
  private adoptPopup(page: Page): void {
    if (this.byPlaywrightPage.has(page) || this.currentState !== 'ready') return;
    if (this.holdPopups) {
      this.holdPopups.push(page);
      return;
    }
    if (this.listPages().length >= this.init.maxPages) {
      this.refusedPopups++;
      this.init.logger.warn('popup_refused', { sessionId: this.id, code: ErrorCodes.LIMIT_EXCEEDED });
      page.close().catch(() => undefined);
      return;
    }
    const managed = this.adopt(page, false);
    if (this.viewport) page.setViewportSize(this.viewport).catch(() => undefined);
    page
      .opener()
      .then((opener) => {
        const openerId = opener ? this.byPlaywrightPage.get(opener)?.id : undefined;
        if (openerId) managed.setOpener(openerId);
      })
      .catch(() => undefined);
  }

  private unavailableError(): BrowserMeshError {
    if (this.currentState === 'failed') {
      return new BrowserMeshError(
        this.failure?.code ?? ErrorCodes.SESSION_FAILED,
        `Session ${this.id} failed: its browser went away`,
        {
          details: { sessionId: this.id },
          recoveryHint: 'Close this session and create a new one; it is never recreated silently.',
        },
      );
    }
    return new BrowserMeshError(ErrorCodes.SESSION_CLOSED, `Session ${this.id} is ${this.currentState}`, {
      details: { sessionId: this.id },
    });
  }
}

export function pageLimitError(maxPages: number): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.LIMIT_EXCEEDED, `A session may hold at most ${maxPages} pages`, {
    details: { limit: maxPages, field: 'maxPages' },
    recoveryHint: 'Close a page with browser_page_close first.',
  });
}
