import { z } from 'zod';
import { invalidArgument } from '../errors.js';
import type { ToolContext } from './define.js';

/**
 * A one-shot client (the Inspector CLI, a script) starts a new server for every call, so it never
 * holds a session id from an earlier one. A navigation that names no session opens one
 * for itself and says so in the result; the session then works like any other (close it, or let
 * the server's exit end it).
 */

export const createdSessionField = {
  session: z
    .object({ sessionId: z.string(), pageId: z.string(), created: z.literal(true) })
    .optional()
    .describe('Opened for this call (no sessionId given); pass its ids to keep using it.'),
};

export interface PageTarget {
  sessionId: string;
  pageId: string;
  /** Set when the session was opened for this call. */
  created?: { sessionId: string; pageId: string; created: true };
}

/**
 * The named page, or undefined when neither id is given (then {@link openForCall}). Synchronous on
 * purpose: a call that names its page must reach the session queue in the same tick as any other
 * tool, or two calls sent back to back could be queued out of their order.
 */
export function namedPage(args: {
  sessionId?: string | undefined;
  pageId?: string | undefined;
}): PageTarget | undefined {
  const { sessionId, pageId } = args;
  if (sessionId !== undefined && pageId !== undefined) return { sessionId, pageId };
  if (sessionId !== undefined) throw invalidArgument('pageId', 'is required with sessionId');
  if (pageId !== undefined)
    throw invalidArgument('sessionId', 'is required with pageId (omit both to open a new session)');
  return undefined;
}

/** Opens a session for a call that named none: its initial page. */
export async function openForCall(tool: ToolContext): Promise<PageTarget> {
  if (tool.mesh.runtimeInfo().browser.state !== 'ready') tool.progress?.('starting the browser');
  const opened = await tool.mesh.createSession({ name: 'throwaway' }, tool.call);
  const ids = { sessionId: opened.session.sessionId, pageId: opened.initialPage.pageId };
  return { ...ids, created: { ...ids, created: true } };
}

/** Closes a session opened for a call that then failed; its own error is the one that counts. */
export async function closeQuietly(tool: ToolContext, sessionId: string): Promise<void> {
  await tool.mesh.closeSession(sessionId, tool.call).catch(() => undefined);
}
