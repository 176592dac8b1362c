import { toError, type ExecutorView as CliExecutor, type NamedSession } from './executor-shared.js';
import type { CliAction, CliResponse } from './protocol.js';

/** Tabs and named sessions: a few tool calls each, answered as short lines. */

interface PageInfo {
  pageId: string;
  url: string;
  title?: string;
}

/** `tabs`: one line per tab, `*` on this name's current one, numbered from 1 for `tabs select N`. */
export async function listTabs(
  executor: CliExecutor,
  name: string,
  named: NamedSession,
  heading?: string,
): Promise<CliResponse> {
  const result = await executor.call('browser_page_list', { sessionId: named.sessionId });
  if (!result.ok) return executor.answer(name, result);
  const pages = (result.structured as { pages: PageInfo[] }).pages;
  if (!pages.some((page) => page.pageId === named.pageId) && pages[0]) named.pageId = pages[0].pageId;
  const lines = pages.map(
    (page, i) =>
      `${page.pageId === named.pageId ? '*' : ' '} ${i + 1} ${page.url}${page.title ? ` — ${page.title}` : ''}`,
  );
  return {
    ok: true,
    text: [...(heading ? [heading] : []), ...lines].join('\n'),
    structured: { session: name, currentPageId: named.pageId, pages },
  };
}

export async function tabsAction(
  executor: CliExecutor,
  name: string,
  named: NamedSession,
  action: Extract<CliAction, { kind: 'tabs' }>,
): Promise<CliResponse> {
  if (action.action === 'list') return listTabs(executor, name, named);
  if (action.action === 'new') {
    const created = await executor.call('browser_page_create', { sessionId: named.sessionId });
    if (!created.ok) return executor.answer(name, created);
    named.pageId = (created.structured as { page: PageInfo }).page.pageId;
    if (action.url !== undefined) {
      const went = await executor.call('browser_navigate', { ...named, url: action.url });
      if (!went.ok) return executor.answer(name, went);
    }
    return listTabs(executor, name, named);
  }
  const pageId = action.tab === undefined ? named.pageId : await pageOf(executor, named, action.tab);
  if (pageId === undefined)
    return {
      ok: false,
      code: 'PAGE_NOT_FOUND',
      message: `no tab ${action.tab ?? ''}`,
      hint: 'list them: browsermesh tabs',
    };
  if (action.action === 'select') {
    named.pageId = pageId;
    return listTabs(executor, name, named);
  }
  const closed = await executor.call('browser_page_close', { sessionId: named.sessionId, pageId });
  if (!closed.ok) return executor.answer(name, closed);
  return listTabs(executor, name, named, `closed tab ${action.tab ?? 'current'}`);
}

/** A tab by its number in `tabs` (1-based) or its pageId. */
async function pageOf(executor: CliExecutor, named: NamedSession, tab: string): Promise<string | undefined> {
  const result = await executor.call('browser_page_list', { sessionId: named.sessionId });
  if (!result.ok) return undefined;
  const pages = (result.structured as { pages: PageInfo[] }).pages;
  if (/^\d{1,4}$/.test(tab)) return pages[Number(tab) - 1]?.pageId;
  return pages.find((page) => page.pageId === tab)?.pageId;
}

/** `sessions`: the daemon's named sessions with their state and tab count. */
export async function listNamed(executor: CliExecutor): Promise<CliResponse> {
  const result = await executor.call('browser_session_list', {});
  if (!result.ok) return toError(result);
  const infos = (
    result.structured as { sessions: Array<{ sessionId: string; state: string; pageCount: number }> }
  ).sessions;
  const rows = [...executor.named].map(([name, named]) => {
    const info = infos.find((s) => s.sessionId === named.sessionId);
    return { name, sessionId: named.sessionId, state: info?.state ?? 'closed', tabs: info?.pageCount ?? 0 };
  });
  const text =
    rows.length === 0 ? '(no sessions)' : rows.map((r) => `${r.name} ${r.state} tabs=${r.tabs}`).join('\n');
  return { ok: true, text, structured: { sessions: rows } };
}

/** Closes a named session (idempotent: an unknown name is already closed). */
export async function closeNamed(executor: CliExecutor, name: string): Promise<CliResponse> {
  const named = executor.named.get(name);
  if (!named) return { ok: true, text: `session ${name} is not open`, structured: { name, closed: false } };
  executor.named.delete(name);
  const result = await executor.call('browser_session_close', { sessionId: named.sessionId });
  if (!result.ok) return toError(result);
  return { ok: true, text: `session ${name} closed`, structured: { name, closed: true } };
}

/** `unroute [pattern]`: the routes with exactly this pattern (or all of them) removed, by id. */
export async function unroute(
  executor: CliExecutor,
  name: string,
  named: NamedSession,
  url: string | undefined,
): Promise<CliResponse> {
  const session = { sessionId: named.sessionId };
  if (url === undefined)
    return executor.answer(name, await executor.call('browser_route', { ...session, action: 'remove' }));
  const listed = await executor.call('browser_route', { ...session, action: 'list' });
  if (!listed.ok) return executor.answer(name, listed);
  const routes = (listed.structured as { routes?: Array<{ routeId: string; url: string }> }).routes ?? [];
  let removed = 0;
  for (const route of routes.filter((r) => r.url === url)) {
    const result = await executor.call('browser_route', {
      ...session,
      action: 'remove',
      routeId: route.routeId,
    });
    if (!result.ok) return executor.answer(name, result);
    removed += (result.structured as { removed?: number }).removed ?? 0;
  }
  return { ok: true, text: JSON.stringify({ removed }), structured: { removed } };
}
