import type { BrowserContext } from '@mastra/core/browser';
import type {
  ProcessInputArgs,
  ProcessInputResult,
  ProcessInputStepArgs,
  ProcessInputStepResult,
} from '@mastra/core/processors';

const PREFIX = 'You have a browser (';

/** The fields of Mastra's browser context the line uses. */
type TabState = Pick<BrowserContext, 'isOpen' | 'currentUrl' | 'tabCount'>;

/**
 * Tells the model that it has a browser and where its current tab is. Mastra's own
 * BrowserContextProcessor also streams browser "state signals", which need Mastra memory on the
 * agent and fail the run without it; this one only keeps one short system line, so seed 000's
 * example works with or without memory. The line is written at the start of the request and
 * rewritten at every later step from the live state, so after `browser_goto` it names the page
 * that is open now, not the one open when the request began.
 */
export class BrowserMeshContextProcessor {
  readonly id = 'browser-context';

  processInput(args: ProcessInputArgs): ProcessInputResult {
    const ctx = args.requestContext?.get('browser') as BrowserContext | undefined;
    if (!ctx) return args.messageList;
    return {
      messages: args.messages,
      systemMessages: [...args.systemMessages, { role: 'system', content: contextLine(ctx.provider, ctx) }],
    };
  }

  async processInputStep(args: ProcessInputStepArgs): Promise<ProcessInputStepResult | undefined> {
    const ctx = args.requestContext?.get('browser') as BrowserContext | undefined;
    if (!ctx || args.stepNumber === 0) return undefined;
    // getState reads the thread's tabs now; the context's own fields were taken when the request began.
    const live: TabState = { ...ctx, ...(await ctx.getState?.().catch(() => undefined)) };
    const line = contextLine(ctx.provider, live);
    let replaced = false;
    const systemMessages = args.systemMessages.map((message) => {
      if (message.role !== 'system' || !message.content.startsWith(PREFIX)) return message;
      replaced = true;
      return { ...message, content: line };
    });
    return replaced ? { systemMessages } : undefined;
  }
}

function contextLine(provider: string, state: TabState): string {
  const lines = [
    `${PREFIX}${provider}): read pages with browser_snapshot and act on them by ref with the other browser_* tools.`,
  ];
  if (state.isOpen && state.currentUrl)
    lines.push(
      `Current tab: ${state.currentUrl}${state.tabCount && state.tabCount > 1 ? ` (${state.tabCount} tabs open)` : ''}.`,
    );
  else lines.push('No page is open yet: start with browser_goto.');
  return lines.join(' ');
}
