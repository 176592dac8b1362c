import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { ManagedPage } from '../engine/page.js';
import type { BrowserMesh } from '../engine/runtime.js';
import type { Session } from '../engine/session.js';
import type { ContextSettings } from '../engine/context-settings.js';
import type { LaunchedBrowser } from './lifecycle.js';
import type { BrowserScope } from './options.js';

/** The thread id used when a framework gives none. */
export const DEFAULT_THREAD_ID = 'default';
const SHARED_KEY = '\u0000shared';

/** One BrowserMesh session: a thread's own (thread scope) or everyone's (shared scope). */
export interface SessionSlot {
  readonly key: string;
  readonly sessionId: string;
  readonly generation: number;
}

type TabListener = (page: ManagedPage) => void;

/**
 * What one thread sees: its session and its own current tab. The current tab lives here, per
 * thread, never on the AgentBrowser: concurrent threads cannot move each other's tab, even in
 * shared scope where they share pages.
 */
export class ThreadView {
  private current: ManagedPage;
  private readonly listeners = new Set<TabListener>();

  constructor(
    readonly threadId: string,
    readonly slot: SessionSlot,
    readonly mesh: BrowserMesh,
    initialPage: ManagedPage,
  ) {
    this.current = initialPage;
  }

  get sessionId(): string {
    return this.slot.sessionId;
  }

  /** The id of the thread's current tab (it may have closed since). */
  get currentPageId(): string {
    return this.current.id;
  }

  /** The session, when it is still usable. */
  session(): Session | undefined {
    try {
      const session = this.mesh.getSession(this.slot.sessionId);
      return session.state === 'ready' ? session : undefined;
    } catch {
      return undefined;
    }
  }

  /** The current tab without side effects (screencast, status reads); undefined if it closed. */
  peekCurrentPage(): ManagedPage | undefined {
    return this.current.isClosed || !this.session() ? undefined : this.current;
  }

  /**
   * The current tab, for an operation already running on the session queue. When it was closed
   * (by the page itself, or a tab close) its opener, else the newest tab takes over; when no tab is
   * left, a new blank one is opened.
   */
  async currentPage(session: Session): Promise<ManagedPage> {
    if (!this.current.isClosed) return this.current;
    const pages = session.listPages();
    const opener = this.current.openerPageId;
    const next = pages.find((page) => page.id === opener) ?? pages.at(-1) ?? (await session.createPage());
    this.switchTo(next);
    return next;
  }

  switchTo(page: ManagedPage): void {
    if (page === this.current) return;
    this.current = page;
    for (const listener of this.listeners) listener(page);
  }

  /** Called with the new current tab whenever this thread switches tabs; returns an unsubscribe. */
  onTabChange(listener: TabListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Maps thread ids to sessions and views. Thread scope: one session (its own BrowserContext on the
 * shared browser) per thread. Shared scope: one session for all, with a view per thread.
 * Sessions are created lazily on a thread's first call; concurrent first calls share one creation.
 */
export class ThreadRegistry {
  private readonly slots = new Map<string, SessionSlot>();
  private readonly creating = new Map<string, Promise<SessionSlot>>();
  private readonly views = new Map<string, ThreadView>();
  /** Threads whose session died with the browser; told once, on their next call. */
  private readonly lost = new Set<string>();

  constructor(
    private readonly scope: BrowserScope,
    private readonly contextSettings: ContextSettings,
  ) {}

  /** The view for `threadId` on `launched`, creating its session on first use. */
  async viewFor(threadId: string, launched: LaunchedBrowser): Promise<ThreadView> {
    if (this.lost.delete(threadId)) throw browserLostError();
    const known = this.views.get(threadId);
    if (known && known.slot.generation === launched.generation && known.session()) return known;
    const slot = await this.slotFor(this.keyOf(threadId), launched);
    const again = this.views.get(threadId);
    if (again && again.slot === slot) return again;
    const session = launched.mesh.getSession(slot.sessionId);
    const first = session.listPages()[0] ?? (await session.createPage());
    const view = new ThreadView(threadId, slot, launched.mesh, first);
    this.views.set(threadId, view);
    return view;
  }

  /** The view of a thread that already has a session, without creating anything. */
  existingView(threadId: string): ThreadView | undefined {
    const view = this.views.get(threadId);
    return view?.session() ? view : undefined;
  }

  /** Forgets a thread; returns its slot when no other thread uses it (the caller closes it). */
  forgetThread(threadId: string): SessionSlot | undefined {
    const view = this.views.get(threadId);
    if (!view) return undefined;
    this.views.delete(threadId);
    if (this.scope === 'shared') return undefined;
    this.slots.delete(view.slot.key);
    return view.slot;
  }

  /** Every slot and view is dropped (the browser closed). `lostBrowser` marks the threads to tell. */
  reset(lostBrowser: boolean): void {
    if (lostBrowser) for (const threadId of this.views.keys()) this.lost.add(threadId);
    this.slots.clear();
    this.views.clear();
    this.creating.clear();
  }

  private keyOf(threadId: string): string {
    return this.scope === 'shared' ? SHARED_KEY : threadId;
  }

  private async slotFor(key: string, launched: LaunchedBrowser): Promise<SessionSlot> {
    const known = this.slots.get(key);
    if (known && known.generation === launched.generation && isUsable(launched.mesh, known.sessionId))
      return known;
    let pending = this.creating.get(key);
    if (!pending) {
      pending = this.createSlot(key, launched).finally(() => this.creating.delete(key));
      this.creating.set(key, pending);
    }
    return pending;
  }

  private async createSlot(key: string, launched: LaunchedBrowser): Promise<SessionSlot> {
    const name = key === SHARED_KEY ? 'agent-shared' : 'agent-thread';
    const { session } = await launched.mesh.createSession({ name, contextSettings: this.contextSettings });
    const slot = { key, sessionId: session.sessionId, generation: launched.generation };
    this.slots.set(key, slot);
    return slot;
  }
}

function isUsable(mesh: BrowserMesh, sessionId: string): boolean {
  try {
    return mesh.getSession(sessionId).state === 'ready';
  } catch {
    return false;
  }
}

export function browserLostError(): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.BROWSER_DISCONNECTED,
    "The browser went away; this thread's pages, logins and refs are gone",
    {
      recoveryHint: 'A new browser is ready: start again with browser_goto.',
    },
  );
}
