/**
 * Mastra adapter: `import { AgentBrowser } from 'browsermesh/mastra'` gives a `MastraBrowser`, so
 * seed 000's example works as written: `new Agent({ ..., browser })`. Needs the optional peer
 * `@mastra/core` (1.x). Only this subpath loads it; `import 'browsermesh'` never does.
 */
import {
  MastraBrowser,
  type BrowserState,
  type ScreencastOptions,
  type ScreencastStream,
} from '@mastra/core/browser';
import { createTool, type ToolExecutionContext } from '@mastra/core/tools';
import { AgentBrowser as CoreAgentBrowser } from '../agent-browser.js';
import type { AgentBrowserOptions } from '../options.js';
import type { AgentTool } from '../tool-types.js';
import { BrowserMeshContextProcessor } from './mastra-context.js';
import { threadIdFrom } from './thread-id.js';

type MastraTools = ReturnType<MastraBrowser['getTools']>;
type MastraHook = (args: { browser: MastraBrowser }) => void | Promise<void>;

/** The core options, with lifecycle hooks that receive this Mastra browser. */
export type MastraAgentBrowserOptions = Omit<AgentBrowserOptions, 'onLaunch' | 'onClose'> & {
  onLaunch?: MastraHook;
  onClose?: MastraHook;
};

/** Mastra's key for the thread id in a request context. */
const MASTRA_THREAD_KEY = 'mastra__threadId';

/**
 * BrowserMesh's AgentBrowser as a Mastra browser provider. Lifecycle, scope and tools are the core
 * AgentBrowser's (`.core`); this class only speaks Mastra's interface. The thread of each tool call
 * comes from Mastra's tool-execution context (`agent.threadId`), never from `setCurrentThread`.
 *
 * @example
 * ```ts
 * import { Agent } from '@mastra/core/agent';
 * import { AgentBrowser } from 'browsermesh/mastra';
 *
 * const browser = new AgentBrowser({ headless: true, viewport: { width: 1280, height: 720 }, scope: 'thread' });
 * export const browserAgent = new Agent({ id: 'browser-agent', name: 'Browser Agent', instructions: '…', model, browser });
 * ```
 */
export class MastraAgentBrowser extends MastraBrowser {
  readonly id: string;
  readonly name = 'BrowserMesh AgentBrowser';
  readonly provider = 'browsermesh';
  /** The framework-free AgentBrowser doing the work. */
  readonly core: CoreAgentBrowser;
  private readonly mastraTools: MastraTools;

  constructor(options: MastraAgentBrowserOptions | CoreAgentBrowser = {}) {
    super(baseConfig(options));
    const hooks = options instanceof CoreAgentBrowser ? {} : options;
    this.core =
      options instanceof CoreAgentBrowser
        ? options
        : new CoreAgentBrowser({
            ...options,
            onLaunch: hooks.onLaunch && (() => hooks.onLaunch?.({ browser: this })),
            onClose: hooks.onClose && (() => hooks.onClose?.({ browser: this })),
          });
    this.id = `browsermesh-${Math.random().toString(36).slice(2, 10)}`;
    this.status = this.core.status;
    this.core.onStatusChange((status) => {
      this.status = status;
      this.error = status === 'error' ? this.core.error : undefined;
      if (status === 'ready') this.notifyBrowserReady();
      if (status === 'closed') this.notifyBrowserClosed();
    });
    this.mastraTools = toMastraTools(this.core);
  }

  override getTools(): MastraTools {
    return this.mastraTools;
  }

  /** A context line for the model that works with or without Mastra memory (see BrowserMeshContextProcessor). */
  override getInputProcessors(
    configured: Parameters<MastraBrowser['getInputProcessors']>[0] = [],
  ): ReturnType<MastraBrowser['getInputProcessors']> {
    const alreadyThere = configured.some(
      (processor) => 'id' in processor && processor.id === 'browser-context',
    );
    return alreadyThere ? [] : [new BrowserMeshContextProcessor()];
  }

  override async launch(): Promise<void> {
    await this.core.launch();
  }

  override async close(): Promise<void> {
    await this.core.close();
  }

  override async ensureReady(): Promise<void> {
    await this.core.launch();
  }

  protected async doLaunch(): Promise<void> {
    await this.core.launch();
  }

  protected async doClose(): Promise<void> {
    await this.core.close();
  }

  override getScope(): 'shared' | 'thread' {
    return this.core.scope;
  }

  override isBrowserRunning(threadId?: string): boolean {
    return this.core.isRunning(threadId);
  }

  override hasThreadSession(threadId: string): boolean {
    return this.core.hasThread(threadId);
  }

  override async closeThreadSession(threadId: string): Promise<void> {
    await this.core.closeThread(threadId);
    this.notifyBrowserClosed(threadId);
  }

  override getSessionId(threadId?: string): string {
    return this.core.scope === 'thread' && threadId ? `${this.id}:${threadId}` : this.id;
  }

  override async getCurrentUrl(threadId?: string): Promise<string | null> {
    return this.core.currentUrl(threadId);
  }

  override async getBrowserState(threadId?: string): Promise<BrowserState | null> {
    const state = await this.core.getThreadState(threadId);
    return (
      state && {
        tabs: state.tabs.map(({ url, title }) => ({ url, title })),
        activeTabIndex: state.activeTabIndex,
      }
    );
  }

  override async getTabState(threadId?: string): Promise<BrowserState['tabs']> {
    return (await this.getBrowserState(threadId))?.tabs ?? [];
  }

  override async getActiveTabIndex(threadId?: string): Promise<number> {
    return this.core.peekThreadTabs(threadId)?.activeTabIndex ?? 0;
  }

  override async startScreencast(options: ScreencastOptions = {}): Promise<ScreencastStream> {
    const stream = await this.core.startScreencast(options);
    return stream as unknown as ScreencastStream;
  }

  protected async getActivePage(threadId?: string): Promise<{ url(): string } | null> {
    const url = this.core.currentUrl(threadId);
    return url === null ? null : { url: () => url };
  }

  protected getBrowserStateForThread(threadId?: string): BrowserState | null {
    const state = this.core.peekThreadTabs(threadId);
    return state && { tabs: state.tabs.map(({ url }) => ({ url })), activeTabIndex: state.activeTabIndex };
  }
}

export { MastraAgentBrowser as AgentBrowser };

/**
 * The AgentBrowser's tools as Mastra tools (also what `MastraAgentBrowser.getTools()` returns), for
 * use without the `browser` option: `new Agent({ tools: toMastraTools(browser) })`.
 */
export function toMastraTools(browser: CoreAgentBrowser): MastraTools {
  return Object.fromEntries(browser.listTools().map((agentTool) => [agentTool.id, toMastraTool(agentTool)]));
}

function toMastraTool(agentTool: AgentTool): MastraTools[string] {
  return createTool({
    id: agentTool.id,
    description: agentTool.description,
    inputSchema: agentTool.inputSchema,
    outputSchema: agentTool.outputSchema,
    execute: async (input: unknown, context: ToolExecutionContext) =>
      agentTool.execute(input, { threadId: threadOf(context), signal: context?.abortSignal }),
    toModelOutput: (output: unknown) => toMastraModelOutput(agentTool, output),
  }) as unknown as MastraTools[string];
}

/** Mastra passes the thread on the agent context, and also in the request context. */
function threadOf(context: ToolExecutionContext | undefined): string | undefined {
  return (
    threadIdFrom(context?.agent) ??
    threadIdFrom({ threadId: context?.requestContext?.get(MASTRA_THREAD_KEY) })
  );
}

/** Mastra hands this to the model as the AI SDK's tool result output: text, or text plus an image. */
function toMastraModelOutput(agentTool: AgentTool, output: unknown): unknown {
  const content = agentTool.toModelContent(output as Record<string, unknown>);
  const first = content[0];
  if (content.length === 1 && first?.type === 'text') return { type: 'text', value: first.text };
  return {
    type: 'content',
    value: content.map((part) =>
      part.type === 'text'
        ? { type: 'text', text: part.text }
        : { type: 'media', data: part.data, mediaType: part.mimeType },
    ),
  };
}

/** What the Mastra base class keeps: display settings only. cdpUrl and hooks stay with the core. */
function baseConfig(
  options: MastraAgentBrowserOptions | CoreAgentBrowser,
): ConstructorParameters<typeof MastraBrowser>[0] {
  if (options instanceof CoreAgentBrowser) return { headless: options.headless, scope: options.scope };
  const scope = options.scope ?? (options.cdpUrl === undefined ? 'thread' : 'shared');
  return {
    headless: options.headless ?? true,
    ...(options.viewport ? { viewport: options.viewport } : {}),
    ...(options.timeout ? { timeout: options.timeout } : {}),
    ...(options.screencast ? { screencast: options.screencast } : {}),
    scope,
  };
}
