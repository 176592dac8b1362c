import { titleLine } from '../redaction/session-redact.js';
import { redactSecrets } from '../secrets.js';
import { silentLogger, type Logger } from '../engine/logger.js';
import type { ContextSettings } from '../engine/context-settings.js';
import { BrowserLifecycle } from './lifecycle.js';
import {
  resolveOptions,
  resolveScreencast,
  type AgentBrowserOptions,
  type BrowserScope,
  type BrowserStatus,
  type ResolvedOptions,
  type ScreencastOptions,
} from './options.js';
import { RecordingManager } from './recording/manager.js';
import { ScreencastStream } from './recording/screencast-stream.js';
import { DEFAULT_THREAD_ID, ThreadRegistry, type ThreadView } from './threads.js';
import { toAgentTool } from './tool-runner.js';
import type { AgentTool, AgentTools } from './tool-types.js';
import { buildToolEntries } from './tools/index.js';
import type { BrowserMesh } from '../engine/runtime.js';
import type { RunningDashboard } from '../dashboard/server.js';
import type { Services } from '../tools/services.js';

/** A thread's tabs, for frameworks that show or restore browser state. */
export interface ThreadBrowserState {
  tabs: Array<{ tabId: string; url: string; title: string }>;
  activeTabIndex: number;
}

/**
 * Deterministic browser tools for AI agents (seed 000): accessibility snapshots with refs (`@e5`)
 * and the tools that act on them, over BrowserMesh's engine and operations.
 *
 * One Chromium is shared by all threads; in `'thread'` scope every conversation thread gets its
 * own isolated session (its own BrowserContext: cookies, storage, tabs, refs), in `'shared'` scope
 * all threads use one session. The thread comes with each tool call (`execute(input, { threadId })`),
 * never from state on this object, so concurrent threads cannot race each other.
 *
 * @example
 * ```ts
 * import { AgentBrowser } from 'browsermesh';
 *
 * const browser = new AgentBrowser({ headless: true, viewport: { width: 1280, height: 720 }, scope: 'thread' });
 * const tools = browser.getTools();
 * await tools.browser_goto?.execute({ url: 'https://example.com' }, { threadId: 'chat-1' });
 * const page = await tools.browser_snapshot?.execute({ interactiveOnly: true }, { threadId: 'chat-1' });
 * await browser.close();
 * ```
 */
export class AgentBrowser {
  /** 'thread' or 'shared' (see the class description). */
  readonly scope: BrowserScope;
  private readonly options: ResolvedOptions;
  private readonly logger: Logger;
  private readonly lifecycle: BrowserLifecycle;
  private readonly threads: ThreadRegistry;
  private readonly recordings: RecordingManager | undefined;
  private readonly screencasts = new Set<ScreencastStream>();
  private readonly statusListeners = new Set<(status: BrowserStatus) => void>();
  private readonly tools: AgentTools;
  private readonly dashboards = new Map<BrowserMesh, Promise<RunningDashboard>>();

  constructor(options: AgentBrowserOptions = {}) {
    this.options = resolveOptions(options);
    this.scope = this.options.scope;
    this.logger = options.logger ?? silentLogger;
    const viewport = this.options.viewport;
    const contextSettings: ContextSettings = { viewport: viewport === 'window' ? null : viewport };
    this.threads = new ThreadRegistry(this.scope, contextSettings);
    this.recordings = this.options.recording
      ? new RecordingManager(this.options.recording, this.logger)
      : undefined;
    this.lifecycle = new BrowserLifecycle(
      this.options,
      {
        onLaunch: async () => options.onLaunch?.({ browser: this }),
        onClose: async () => options.onClose?.({ browser: this }),
        beforeShutdown: async () => {
          await this.endAll(false);
          await this.closeDashboards();
        },
        onDisconnected: () => void this.endAll(true),
        onStatus: (status) => {
          for (const listener of this.statusListeners) listener(status);
        },
      },
      this.logger,
    );
    const host = {
      logger: this.logger,
      secrets: this.options.secrets,
      viewFor: (threadId: string) => this.viewFor(threadId),
      existingView: (threadId: string) => this.threads.existingView(threadId),
      servicesFor: (mesh: BrowserMesh) => this.servicesFor(mesh),
    };
    const services = { closeFor: (threadId: string) => this.closeFor(threadId), recordings: this.recordings };
    const entries = buildToolEntries(services, host, {
      published: this.options.publishedTools,
      excluded: this.options.excludeTools,
    });
    this.tools = Object.fromEntries(entries.map((entry) => [entry.name, toAgentTool(entry, host)]));
  }

  /** The loopback dashboard of a runtime (`dashboard: true`), started on first need. */
  private async servicesFor(mesh: BrowserMesh): Promise<Services> {
    if (!this.options.dashboard) return {};
    let running = this.dashboards.get(mesh);
    if (!running) {
      // Its own random token: only take-over links (which carry theirs) open it; no other local user.
      running = import('../dashboard/server.js').then(({ startDashboardServer, newDashboardToken }) =>
        startDashboardServer({
          mesh,
          logger: this.logger,
          port: 0,
          token: newDashboardToken(),
          takeover: false,
        }),
      );
      this.dashboards.set(mesh, running);
      running.catch(() => this.dashboards.delete(mesh));
    }
    const { url } = await running;
    return { dashboardUrl: () => url };
  }

  private async closeDashboards(): Promise<void> {
    const running = [...this.dashboards.values()];
    this.dashboards.clear();
    await Promise.allSettled(running.map(async (dashboard) => (await dashboard).close()));
  }

  /** 'pending' | 'launching' | 'ready' | 'error' | 'closing' | 'closed'. */
  get status(): BrowserStatus {
    return this.lifecycle.status;
  }

  /** A safe description of why the last launch failed. */
  get error(): string | undefined {
    return this.lifecycle.error;
  }

  get headless(): boolean {
    return this.options.headless;
  }

  /**
   * Starts the browser (tool calls also start it on demand). Concurrent calls share one launch; after
   * `close()`, or when the browser went away, it starts a new one.
   */
  async launch(): Promise<void> {
    await this.lifecycle.launch();
  }

  /**
   * Closes every session and the browser, bounded whatever the pages do: calls still queued fail at
   * once with SESSION_CLOSED, running ones are interrupted (see docs/reliability.md). A browser
   * reached over `cdpUrl` is only disconnected, never killed. Idempotent; a launch in progress is finished and then closed. Recordings in
   * progress are finished first, so their files stay playable.
   */
  close(): Promise<void> {
    return this.lifecycle.close();
  }

  /** Whether the browser is up (and, given a thread, whether that thread has a live session). */
  isRunning(threadId?: string): boolean {
    if (this.lifecycle.status !== 'ready') return false;
    return threadId === undefined || this.threads.existingView(threadId) !== undefined;
  }

  /** Whether `threadId` has a session (in shared scope: has used the shared one). */
  hasThread(threadId: string): boolean {
    return this.threads.existingView(threadId) !== undefined;
  }

  /** The tools, by name: seed 000's 16 (the recording tools when configured, `extraTools`), minus `excludeTools`. */
  getTools(): AgentTools {
    return { ...this.tools };
  }

  /** The tools as a list, in publication order. */
  listTools(): AgentTool[] {
    return Object.values(this.tools).filter((tool): tool is AgentTool => tool !== undefined);
  }

  /**
   * Closes one thread's session (thread scope; its queued calls fail at once with SESSION_CLOSED, a
   * running one is interrupted) or forgets the thread's view (shared scope). The thread's recording
   * is finished and its screencasts stop. The next call of that thread starts over.
   */
  async closeThread(threadId: string): Promise<void> {
    const view = this.threads.existingView(threadId);
    for (const stream of this.screencasts)
      if (stream.threadId === threadId) await stream.stop('browser_closed');
    const slot = this.threads.forgetThread(threadId);
    if (!slot || !view) return;
    await this.recordings?.stopSession(slot.sessionId);
    await view.mesh.closeSession(slot.sessionId).catch(() => undefined);
  }

  /**
   * Streams a thread's current tab as CDP screencast frames. The stream follows the thread's tab
   * switches; each stream has its own CDP session, so several (and recordings) can run at once.
   * Launches the browser and the thread's session when needed.
   */
  async startScreencast(options: ScreencastOptions & { threadId?: string } = {}): Promise<ScreencastStream> {
    const { threadId, ...rest } = options;
    const params = resolveScreencast({ ...this.options.screencast, ...rest }, 'screencast');
    const stream = new ScreencastStream(await this.viewFor(threadId ?? DEFAULT_THREAD_ID), params);
    stream.once('stop', () => this.screencasts.delete(stream));
    this.screencasts.add(stream);
    await stream.start();
    return stream;
  }

  /** A thread's tabs and current tab, without launching anything; null when it has no session. */
  async getThreadState(threadId = DEFAULT_THREAD_ID): Promise<ThreadBrowserState | null> {
    const view = this.threads.existingView(threadId);
    const session = view?.session();
    const pages = session?.listPages();
    if (!view || !session || !pages) return null;
    const tabs = await Promise.all(
      pages.map(async (page) => ({
        tabId: page.id,
        url: redactSecrets(this.options.secrets, page.page.url()),
        // Redacted before it is cut, by the agent's secrets and what the session's pages kept of them.
        title: titleLine(
          { id: session.id, secrets: this.options.secrets },
          await page.page.title().catch(() => ''),
        ),
      })),
    );
    return {
      tabs,
      activeTabIndex: Math.max(
        0,
        pages.findIndex((page) => page.id === view.currentPageId),
      ),
    };
  }

  /** The thread's tab URLs and current tab, synchronously (no titles); null when it has no session. */
  peekThreadTabs(
    threadId = DEFAULT_THREAD_ID,
  ): { tabs: Array<{ tabId: string; url: string }>; activeTabIndex: number } | null {
    const view = this.threads.existingView(threadId);
    const session = view?.session();
    const pages = session?.listPages();
    if (!view || !session || !pages) return null;
    const tabs = pages.map((page) => ({
      tabId: page.id,
      url: redactSecrets(this.options.secrets, page.page.url()),
    }));
    return {
      tabs,
      activeTabIndex: Math.max(
        0,
        pages.findIndex((page) => page.id === view.currentPageId),
      ),
    };
  }

  /** The URL of the thread's current tab, or null when it has none. */
  currentUrl(threadId = DEFAULT_THREAD_ID): string | null {
    const url = this.threads.existingView(threadId)?.peekCurrentPage()?.page.url();
    return url === undefined ? null : redactSecrets(this.options.secrets, url);
  }

  /** Listens to status changes; returns an unsubscribe function. */
  onStatusChange(listener: (status: BrowserStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private async viewFor(threadId: string): Promise<ThreadView> {
    const launched = await this.lifecycle.ensureReady();
    return this.threads.viewFor(threadId, launched);
  }

  /** browser_close: the thread's session in thread scope; the browser in shared scope. Never launches. */
  private async closeFor(threadId: string): Promise<'thread' | 'browser' | 'nothing'> {
    if (this.scope === 'shared') {
      const running = this.lifecycle.status === 'ready' || this.lifecycle.status === 'launching';
      await this.close();
      return running ? 'browser' : 'nothing';
    }
    const had = this.threads.existingView(threadId) !== undefined;
    await this.closeThread(threadId);
    return had ? 'thread' : 'nothing';
  }

  /** The browser is closing (or went away): finish recordings, stop screencasts, forget sessions. */
  private async endAll(lostBrowser: boolean): Promise<void> {
    // Forget the sessions first (synchronously), so a call arriving meanwhile starts from a clean slate.
    this.threads.reset(lostBrowser);
    await this.recordings?.stopAll();
    await Promise.allSettled([...this.screencasts].map((stream) => stream.stop('browser_closed')));
  }
}

declare module './options.js' {
  /** The hooks' browser is this class (options.ts cannot import it: the import would be a cycle). */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the class's members are the shape
  interface AgentBrowserClass extends AgentBrowser {}
}
