import { z } from 'zod';
import { listPagesWithTitles } from '../operations/read/page-list.js';
import { defineTool, DESTRUCTIVE, IDEMPOTENT_ACTION, READ_ONLY } from './define.js';
import { pageAddress, PageInfoSchema, sessionAddress } from './schemas.js';

export const pageCreate = defineTool({
  name: 'browser_page_create',
  title: 'Create page',
  description: 'Open a blank page (tab) in a session; returns its pageId.',
  profile: 'core',
  input: z.object(sessionAddress).strict(),
  output: z.object({ page: PageInfoSchema }),
  hints: { ...IDEMPOTENT_ACTION, idempotentHint: false },
  async handler(args, { mesh, call }) {
    return mesh.run(
      args.sessionId,
      'page_create',
      async ({ session }) => ({ page: (await session.createPage()).toInfo() }),
      call,
    );
  },
});

export const pageList = defineTool({
  name: 'browser_page_list',
  title: 'List pages',
  description: "A session's pages, popups included, with their URLs and titles.",
  profile: 'core',
  input: z.object(sessionAddress).strict(),
  output: z.object({ pages: z.array(PageInfoSchema) }),
  hints: READ_ONLY,
  async handler(args, { mesh, call }) {
    return mesh.run(args.sessionId, 'page_list', listPagesWithTitles, call);
  },
});

export const pageClose = defineTool({
  name: 'browser_page_close',
  title: 'Close page',
  description: 'Close one page; the session and its other pages stay open.',
  profile: 'core',
  input: z.object(pageAddress).strict(),
  output: z.object({ pageId: z.string(), closed: z.boolean() }),
  hints: DESTRUCTIVE,
  async handler(args, { mesh, call }) {
    return mesh.run(
      args.sessionId,
      'page_close',
      async ({ session }) => {
        await session.closePage(args.pageId);
        return { pageId: args.pageId, closed: true };
      },
      call,
    );
  },
});
