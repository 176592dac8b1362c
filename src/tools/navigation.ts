import { z } from 'zod';
import type { DialogNote } from '../operations/dialogs.js';
import { goBack, goForward, navigate, reload, type NavigationResult } from '../operations/navigation.js';
import { includeSnapshotField, runPageAction, snapshotOutputFields } from './action-runner.js';
import { ACTION, defineTool } from './define.js';
import { pageAddress } from './schemas.js';

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
  description: 'Load an http(s), data: or about:blank URL; returns url, title, status, loadState.',
  profile: 'core',
  input: z
    .object({
      ...pageAddress,
      url: z.string().min(1).max(8192),
      waitUntil: WaitUntil.optional(),
      // The new page's targets in the same call: an agent reads them next anyway (one call saved).
      ...includeSnapshotField,
    })
    .strict(),
  output: NavigationOutput.extend(snapshotOutputFields),
  hints: ACTION,
  async handler(args, tool) {
    return runPageAction<NavigationResult & { dialogs?: DialogNote[] }>(tool, args, 'navigate', (ctx) =>
      navigate(ctx, args.url, args.waitUntil),
    );
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
