import type { CDPSession, Page } from 'playwright-core';

/**
 * A page that a session manages. Other layers (snapshot refs, observability buffers, dialog logs)
 * keep their per-page state here through `state(key, create)`, so the engine does not need to know
 * them and everything dies with the page.
 */
export class ManagedPage {
  readonly createdAt = new Date();
  private cdpSession: Promise<CDPSession> | undefined;
  private readonly extensions = new Map<symbol, unknown>();
  private closed = false;
  private current: Page;

  constructor(
    readonly id: string,
    readonly sessionId: string,
    page: Page,
    readonly isDefault: boolean,
    private opener: string | null,
  ) {
    this.current = page;
    this.watchClose(page);
  }

  /** The Playwright page behind this id (a stuck page's target may be replaced: see `rebind`). */
  get page(): Page {
    return this.current;
  }

  /**
   * Puts a fresh Playwright page behind this id (the old target was closed because it could not be
   * navigated away from). Every layer's per-page state belonged to the old page and is dropped: the
   * session runs its page hooks again on the fresh one.
   */
  rebind(page: Page): void {
    this.current = page;
    this.cdpSession = undefined;
    this.extensions.clear();
    this.closed = false;
    this.watchClose(page);
  }

  private watchClose(page: Page): void {
    page.once('close', () => {
      if (this.current === page) this.closed = true;
    });
  }

  get openerPageId(): string | null {
    return this.opener;
  }

  setOpener(pageId: string): void {
    this.opener = pageId;
  }

  get isClosed(): boolean {
    return this.closed || this.page.isClosed();
  }

  /** One CDP session per page, created on first use. */
  cdp(): Promise<CDPSession> {
    this.cdpSession ??= this.page.context().newCDPSession(this.page);
    return this.cdpSession;
  }

  /** Per-page state owned by another layer, created on first access. */
  state<T>(key: symbol, create: () => T): T {
    if (!this.extensions.has(key)) this.extensions.set(key, create());
    return this.extensions.get(key) as T;
  }

  toInfo(): PageInfo {
    return {
      pageId: this.id,
      sessionId: this.sessionId,
      url: this.isClosed ? '' : this.page.url(),
      isDefault: this.isDefault,
      openerPageId: this.openerPageId,
      createdAt: this.createdAt.toISOString(),
    };
  }
}

export interface PageInfo {
  pageId: string;
  sessionId: string;
  url: string;
  isDefault: boolean;
  openerPageId: string | null;
  createdAt: string;
}
