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

  constructor(
    readonly id: string,
    readonly sessionId: string,
    readonly page: Page,
    readonly isDefault: boolean,
    private opener: string | null,
  ) {
    page.once('close', () => {
      this.closed = true;
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
