import type { BrowserContext } from '@mastra/core/browser';
import type { ProcessInputArgs, ProcessInputResult } from '@mastra/core/processors';

/**
 * Tells the model, once per request, that it has a browser and where its current tab is. Mastra's
 * own BrowserContextProcessor also streams browser "state signals", which need Mastra memory on the
 * agent and fail the run without it; this one only adds a short system line, so seed 000's example
 * works with or without memory.
 */
export class BrowserMeshContextProcessor {
  readonly id = 'browser-context';

  processInput(args: ProcessInputArgs): ProcessInputResult {
    const ctx = args.requestContext?.get('browser') as BrowserContext | undefined;
    if (!ctx) return args.messageList;
    const lines = [
      `You have a browser (${ctx.provider}): read pages with browser_snapshot and act on them by ref with the other browser_* tools.`,
    ];
    if (ctx.isOpen && ctx.currentUrl)
      lines.push(
        `Current tab: ${ctx.currentUrl}${ctx.tabCount && ctx.tabCount > 1 ? ` (${ctx.tabCount} tabs open)` : ''}.`,
      );
    else lines.push('No page is open yet: start with browser_goto.');
    return {
      messages: args.messages,
      systemMessages: [...args.systemMessages, { role: 'system', content: lines.join(' ') }],
    };
  }
}
