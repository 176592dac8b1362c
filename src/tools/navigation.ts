import { z } from 'zod';
import type { DialogNote } from '../operations/page-services/dialogs.js';
import {
  goBack,
  goForward,
  navigate,
  reload,
  type NavigationResult,
} from '../operations/navigate/navigation.js';
import { includeSnapshotField, runPageAction, snapshotOutputFields } from './action-runner.js';
import { ACTION, agentView, defineTool } from './define.js';
import { PageId, pageAddress, SessionId } from './schemas.js';
import { SeedNavigationOutput } from './seed-shapes.js';
import { closeQuietly, createdSessionField, namedPage, openForCall } from './throwaway.js';

const WaitUntil = z
  .enum(['load', 'domcontentloaded', 'commit'])
  .describe('Default: parsed, then load if soon.')
  .meta({ id: 'WaitUntil' });
/** load, domcontentloaded or commit; a plain string in the listing (it rides on four tools). */
const LoadStateOutput = z.string();
const NavigationOutput = z.object({
  url: z.string(),
  title: z.string(),
  status: z.number().nullable(),
  loadState: LoadStateOutput,
});
const HistoryOutput = NavigationOutput.extend({ moved: z.boolean() });
const historyInput = z.object({ ...pageAddress, waitUntil: WaitUntil.optional() }).strict();

export const navigateTool = defineTool({
  name: 'browser_navigate',
  title: 'Navigate',
  description:
    'Load an http(s), data: or about:blank URL; returns url, title, status, loadState. No sessionId and pageId: opens a new session (returned as session).',
  profile: 'core',
  input: z
    .object({
      sessionId: SessionId.optional(),
      pageId: PageId.optional(),
      url: z.string().min(1).max(8192),
      waitUntil: WaitUntil.optional(),
      // The new page's targets in the same call: an agent reads them next anyway (one call saved).
      ...includeSnapshotField,
    })
    .strict(),
  output: NavigationOutput.extend(snapshotOutputFields).extend(createdSessionField),
  hints: ACTION,
  async handler(args, tool) {
    const target = namedPage(args) ?? (await openForCall(tool));
    const address = { ...args, sessionId: target.sessionId, pageId: target.pageId };
    try {
      return await runPageAction<NavigationResult & { dialogs?: DialogNote[] }>(
        tool,
        address,
        'navigate',
        async (ctx) => {
          const navigated = await navigate(ctx, args.url, args.waitUntil);
          return target.created ? { ...navigated, session: target.created } : navigated;
        },
      );
    } catch (error) {
      // The caller never learned the new session's id: a failed first navigation leaves nothing open.
      if (target.created) await closeQuietly(tool, target.sessionId);
      throw error;
    }
  },
});

export const backTool = defineTool({
  name: 'browser_back',
  title: 'Go back',
  description: "Go back in the page's history (moved=false if there was nothing).",
  profile: 'core',
  input: historyInput,
  output: HistoryOutput,
  hints: ACTION,
  agent: agentView({
    name: 'browser_back',
    description:
      "Go back one page in the current tab's history. moved=false when there was nothing to go back to.",
    input: z.object({}).strict(),
    toArgs: (_args, at) => ({ ...at }),
    output: SeedNavigationOutput.extend({ moved: z.boolean() }),
  }),
  async handler(args, { mesh, call }) {
    return mesh.runOnPage(args.sessionId, args.pageId, 'back', (ctx) => goBack(ctx, args.waitUntil), call);
  },
});

export const forwardTool = defineTool({
  name: 'browser_forward',
  title: 'Go forward',
  description: "Go forward in the page's history (moved=false if there was nothing).",
  profile: 'core',
  input: historyInput,
  output: HistoryOutput,
  hints: ACTION,
  async handler(args, { mesh, call }) {
    return mesh.runOnPage(
      args.sessionId,
      args.pageId,
      'forward',
      (ctx) => goForward(ctx, args.waitUntil),
      call,
    );
  },
});

export const reloadTool = defineTool({
  name: 'browser_reload',
  title: 'Reload',
  description: 'Reload the page.',
  profile: 'core',
  input: historyInput,
  output: NavigationOutput,
  hints: ACTION,
  async handler(args, { mesh, call }) {
    return mesh.runOnPage(args.sessionId, args.pageId, 'reload', (ctx) => reload(ctx, args.waitUntil), call);
  },
});
