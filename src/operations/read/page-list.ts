import type { OperationContext } from '../../engine/runtime.js';
import type { ManagedPage, PageInfo } from '../../engine/page.js';

/** A page busy in a long script answers its title late: it is then listed with an empty title. */
const TITLE_WAIT_MS = 1000;
const MAX_TITLE_CHARS = 200;

/**
 * The session's pages with each one's title, so an agent can tell its tabs apart without a call
 * per page. Titles are read in parallel; each is bounded in time (and the deadline) and length.
 */
export async function listPagesWithTitles(
  ctx: OperationContext,
): Promise<{ pages: Array<PageInfo & { title: string }> }> {
  const pages = ctx.session.listPages();
  const titles = await Promise.all(pages.map((page) => titleOf(page, ctx)));
  return { pages: pages.map((page, i) => ({ ...page.toInfo(), title: titles[i] ?? '' })) };
}

async function titleOf(page: ManagedPage, ctx: OperationContext): Promise<string> {
  if (page.isClosed) return '';
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(''), Math.min(TITLE_WAIT_MS, ctx.deadline.remainingMs()));
  });
  try {
    const title = await Promise.race([page.page.title().catch(() => ''), late]);
    return Array.from(title).slice(0, MAX_TITLE_CHARS).join('');
  } finally {
    clearTimeout(timer);
  }
}
