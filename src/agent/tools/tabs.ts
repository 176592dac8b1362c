import { titleLine } from '../../redaction/session-redact.js';
import { z } from 'zod';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import type { ManagedPage } from '../../engine/page.js';
import type { OperationContext } from '../../engine/runtime.js';
import type { Session } from '../../engine/session.js';
import { checkNavigableUrl, navigate } from '../../operations/navigate/navigation.js';
import type { ThreadView } from '../threads.js';
import { defineAgentTool } from '../tool-types.js';

const Tab = z.object({
  index: z.number(),
  tabId: z.string().describe('Stable id of the tab; stays the same while it is open.'),
  url: z.string(),
  title: z.string(),
  current: z.boolean(),
});

const TabsOutput = z.object({ tabs: z.array(Tab), currentIndex: z.number() });

export const tabsTool = defineAgentTool({
  name: 'browser_tabs',
  description:
    'Manage tabs: list them, open a new one (optionally at a url), switch to one, or close one (default: the current tab). Tabs are addressed by index or by their stable tabId. Popups the page opens appear here.',
  input: z
    .object({
      action: z.enum(['list', 'new', 'switch', 'close']),
      url: z.string().min(1).max(8192).optional().describe('new: URL to open in the new tab.'),
      index: z.number().int().min(0).max(199).optional().describe('switch/close: tab index from the list.'),
      tabId: z
        .string()
        .min(1)
        .max(64)
        .optional()
        .describe('switch/close: stable tab id from the list (instead of index).'),
    })
    .strict(),
  output: TabsOutput,
  async handler(args, call) {
    checkTabArgs(args);
    return call.onSession('tabs', async (ctx, view) => {
      const session = ctx.session;
      await view.currentPage(session);
      if (args.action === 'new') await openTab(ctx, view, args.url);
      if (args.action === 'switch') view.switchTo(findTab(session, args));
      if (args.action === 'close') await closeTab(session, view, args);
      return listTabs(session, view);
    });
  },
});

function checkTabArgs(args: {
  action: string;
  url?: string | undefined;
  index?: number | undefined;
  tabId?: string | undefined;
}): void {
  const addressed = args.index !== undefined || args.tabId !== undefined;
  if (args.url !== undefined && args.action !== 'new')
    throw invalidArgument('url', 'only applies to action "new"');
  if (addressed && (args.action === 'list' || args.action === 'new')) {
    throw invalidArgument(
      args.index !== undefined ? 'index' : 'tabId',
      `does not apply to action "${args.action}"`,
    );
  }
  if (args.index !== undefined && args.tabId !== undefined)
    throw invalidArgument('tabId', 'give index or tabId, not both');
  if (args.action === 'switch' && !addressed)
    throw invalidArgument('index', 'switch needs an index or a tabId');
  if (args.url !== undefined) checkNavigableUrl(args.url);
}

async function openTab(ctx: OperationContext, view: ThreadView, url: string | undefined): Promise<void> {
  const page = await ctx.session.createPage();
  view.switchTo(page);
  if (url !== undefined) await navigate({ ...ctx, page }, url);
}

function findTab(
  session: Session,
  args: { index?: number | undefined; tabId?: string | undefined },
): ManagedPage {
  const pages = session.listPages();
  const page = args.tabId !== undefined ? pages.find((p) => p.id === args.tabId) : pages[args.index ?? -1];
  if (!page) {
    const field = args.tabId !== undefined ? 'tabId' : 'index';
    throw new BrowserMeshError(
      ErrorCodes.PAGE_NOT_FOUND,
      `${field}: no such tab (there are ${pages.length})`,
      {
        details: { field, tabs: pages.length },
        recoveryHint: 'Call browser_tabs { action: "list" } to see the open tabs.',
      },
    );
  }
  return page;
}

async function closeTab(
  session: Session,
  view: ThreadView,
  args: { index?: number | undefined; tabId?: string | undefined },
): Promise<void> {
  const addressed = args.index !== undefined || args.tabId !== undefined;
  const page = addressed ? findTab(session, args) : await view.currentPage(session);
  await session.closePage(page.id);
  // The thread moves to the tab that takes over (opener, else newest, else a new blank tab).
  await view.currentPage(session);
}

async function listTabs(session: Session, view: ThreadView): Promise<z.output<typeof TabsOutput>> {
  const pages = session.listPages();
  const tabs = await Promise.all(
    pages.map(async (page, index) => ({
      index,
      tabId: page.id,
      url: page.page.url(),
      title: titleLine(session, await page.page.title().catch(() => '')),
      current: page.id === view.currentPageId,
    })),
  );
  return { tabs, currentIndex: tabs.findIndex((tab) => tab.current) };
}
