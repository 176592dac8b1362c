import type { BrowserContext, Page } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { newId } from './ids.js';
import type { Logger } from './logger.js';
import { ManagedPage, type PageInfo } from './page.js';
import type { BrowserLease, Placement } from './providers/provider.js';
import { SerialQueue } from './queue.js';
import type { SessionFiles } from './session-files.js';

export type SessionState = 'ready' | 'closing' | 'closed' | 'failed';

/** Called for every page a session adopts (its own, popups, target=_blank), before anything runs on it. */
export type PageHook = (page: ManagedPage, session: Session) => void;

export interface SessionInit {
  name: string | null;
  metadata: Record<string, string>;
  maxPages: number;
  logger: Logger;
  pageHooks: readonly PageHook[];
  contextSettings: Record<string, unknown>;
  stateId: string | null;
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
 * serial queue. Nothing here is shared with another session.
 */
export class Session {
  readonly id = newId('s');
  readonly createdAt = new Date();
  readonly queue = new SerialQueue();
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
  /** Run once the queue has drained and before the context closes (finish traces and recordings). */
  private readonly closeHooks = new Set<() => Promise<void>>();

  constructor(private readonly init: SessionInit) {
    this.files = init.createFiles(this.id);
  }

  get state(): SessionState {
    return this.currentState;
  }

  get browserContext(): BrowserContext {
    if (!this.context) throw this.unavailableError();
    return this.context;
  }

  get browserLease(): BrowserLease | undefined {
    return this.lease;
  }

  /** Binds the context and lease and adopts its first page as the default page. */
  async attach(context: BrowserContext, lease: BrowserLease): Promise<ManagedPage> {
    this.context = context;
    this.lease = lease;
    const page = await context.newPage();
    const initial = this.adopt(page, true);
    // Registered after the initial page exists, so that page is never mistaken for a popup.
    context.on('page', (popup) => this.adoptPopup(popup));
    return initial;
  }

  /** Throws unless the session accepts operations. */
  assertUsable(): void {
    if (this.currentState !== 'ready') throw this.unavailableError();
  }

  getPage(pageId: string): ManagedPage {
    const page = this.pages.get(pageId);
    if (!page || page.isClosed) {
      throw new BrowserMeshError(ErrorCodes.PAGE_NOT_FOUND, `No page ${pageId} in session ${this.id}`, {
        details: { pageId, sessionId: this.id },
        recoveryHint: 'Call browser_page_list for this session to see its pages.',
      });
    }
    return page;
  }

  listPages(): ManagedPage[] {
    return [...this.pages.values()].filter((page) => !page.isClosed);
  }

  findPage(page: Page): ManagedPage | undefined {
    return this.byPlaywrightPage.get(page);
  }

  async createPage(): Promise<ManagedPage> {
    this.assertUsable();
    if (this.listPages().length >= this.init.maxPages) throw pageLimitError(this.init.maxPages);
    const page = await this.browserContext.newPage();
    return this.adopt(page, false);
  }

  async closePage(pageId: string): Promise<void> {
    const page = this.getPage(pageId);
    await page.page.close();
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
   * closing → refuse new → drain → close pages and context → remove the session's files (unless
   * `keepFiles`) → closed. Repeat calls share one close.
   */
  close(options: { keepFiles?: boolean } = {}): Promise<void> {
    this.closing ??= (async () => {
      if (this.currentState === 'ready') this.currentState = 'closing';
      this.queue.refuse(() => this.unavailableError());
      await this.queue.drain();
      for (const hook of this.closeHooks) await hook().catch(() => undefined);
      await this.context?.close().catch(() => undefined);
      await this.lease?.release().catch(() => undefined);
      this.pages.clear();
      this.context = undefined;
      await this.files.dispose({ keepAll: options.keepFiles === true }).catch(() => undefined);
      if (this.currentState === 'closing') this.currentState = 'closed';
      this.init.logger.info('session_closed', { sessionId: this.id });
    })();
    return this.closing;
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

  private adopt(page: Page, isDefault: boolean): ManagedPage {
    const known = this.byPlaywrightPage.get(page);
    if (known) return known;
    const managed = new ManagedPage(newId('p'), this.id, page, isDefault, null);
    this.byPlaywrightPage.set(page, managed);
    this.pages.set(managed.id, managed);
    page.once('close', () => this.pages.delete(managed.id));
    for (const hook of this.init.pageHooks) hook(managed, this);
    return managed;
  }

  /** Pages the page itself opened (window.open, target=_blank) become managed pages, within the limit. */
  private adoptPopup(page: Page): void {
    if (this.byPlaywrightPage.has(page) || this.currentState !== 'ready') return;
    if (this.listPages().length >= this.init.maxPages) {
      this.refusedPopups++;
      this.init.logger.warn('popup_refused', { sessionId: this.id, code: ErrorCodes.LIMIT_EXCEEDED });
      page.close().catch(() => undefined);
      return;
    }
    const managed = this.adopt(page, false);
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
