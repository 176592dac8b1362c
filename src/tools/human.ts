import { z } from 'zod';
import { handoffsOf, type Handoff } from '../engine/handoff.js';
import type { ManagedPage } from '../engine/page.js';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../errors.js';
import { codeParts } from './code-parts.js';
import { ACTION, agentView, defineTool, type ToolContext } from './define.js';
import { HUMAN_REQUEST_UNBOUND } from './human-code.js';
import { dashboardBase, elicitAndWait, endedResult, takeoverUrl, whereNow, within } from './human-wait.js';
import { PageId, sessionAddress } from './schemas.js';

/** How long a request waits for the person when the call gives no timeoutMs. */
const DEFAULT_WAIT_FOR_PERSON_MS = 300_000;
/**
 * A `wait: true` call answers "waiting" after this long (unless its timeoutMs says otherwise), so no
 * client's request timeout (often 60 s) cuts it first; the agent calls again.
 */
const WAIT_SLICE_MS = 50_000;

const Status = z.enum(['waiting', 'returned', 'timeout', 'cancelled']);
const Reason = z.string().min(1).max(500);

const Input = z
  .object({
    ...sessionAddress,
    pageId: PageId.optional().describe("The page the person acts on (default: the session's first page)."),
    reason: Reason.optional().describe('What the person should do, shown to them. Required to ask.'),
    wait: z
      .boolean()
      .optional()
      .describe('Wait for the request made earlier (after a "waiting" result) instead of asking again.'),
    cancel: z.boolean().optional().describe('Withdraw the request made earlier.'),
  })
  .strict();

export const requestHumanTool = defineTool({
  name: 'browser_request_human',
  title: 'Ask a person',
  description:
    'Ask a person to act in the session (log in, solve a CAPTCHA, choose) on the live dashboard; the session waits until they hand back. Gives status returned|timeout|cancelled with the page url and title, never what they typed. Without URL elicitation: status "waiting" and the take-over url to show your user, then call again with wait: true.',
  profile: 'watch',
  input: Input,
  output: z.object({
    status: Status,
    waitedMs: z.number().int(),
    /** "waiting": the take-over link for the person; else the page's URL after the hand-back. */
    url: z.string(),
    title: z.string(),
  }),
  hints: ACTION,
  // AgentBrowser's view (with `dashboard: true`): the thread's tab; AgentBrowser has no elicitation,
  // so the first call gives the link and the next ones wait.
  agent: agentView({
    name: 'browser_request_human',
    description:
      'Ask a person to act in the browser (log in, solve a CAPTCHA): gives status "waiting" and a link for your user; then call with wait: true until the status is returned, timeout or cancelled. What the person types never comes back.',
    input: z
      .object({
        reason: Reason.optional(),
        wait: z.boolean().optional(),
        cancel: z.boolean().optional(),
        timeoutMs: z.number().int().min(1).max(600_000).optional(),
      })
      .strict(),
    toArgs: (args, at) => ({ ...at, ...args }),
  }),
  // Code mode's `human.request(reason, { timeoutMs })`: browser_run binds it to its call
  // (human-code.ts), since it needs the call's dashboard and elicitation.
  code: codeParts({ runners: { humanRequest: HUMAN_REQUEST_UNBOUND } }),
  async handler(args, ctx) {
    const handoffs = handoffsOf(ctx.mesh);
    const { sessionId } = args;
    const session = ctx.mesh.getSession(sessionId, { owner: ctx.call.owner });
    if ([args.reason !== undefined, args.wait === true, args.cancel === true].filter(Boolean).length !== 1)
      throw invalidArgument('reason', 'give exactly one of reason (to ask), wait: true or cancel: true');
    if (args.cancel === true) {
      const pending = handoffs.get(sessionId);
      if (!pending) throw nothingPending();
      handoffs.cancel(sessionId);
      return endedResult(ctx, pending, await pending.done);
    }
    if (args.wait === true) {
      const pending = handoffs.get(sessionId);
      if (!pending) {
        const last = handoffs.lastOutcome(sessionId);
        if (!last) throw nothingPending();
        const page = pageOf(session.listPages(), args.pageId);
        return { status: last.outcome, waitedMs: last.waitedMs, ...(await whereNow(page)) };
      }
      const outcome = await within(pending.done, ctx.call.timeoutMs ?? WAIT_SLICE_MS, ctx.call.signal);
      if (outcome === undefined) return waiting(ctx, pending);
      return endedResult(ctx, pending, outcome);
    }
    const page = pageOf(session.listPages(), args.pageId);
    const base = dashboardBase(ctx);
    const pending = handoffs.open(sessionId, page.id, args.reason ?? '', {
      timeoutMs: ctx.call.timeoutMs ?? DEFAULT_WAIT_FOR_PERSON_MS,
      owner: ctx.call.owner,
      principal: ctx.call.principal,
      operationId: ctx.call.operationId,
    });
    const url = takeoverUrl(base, pending);
    if (!ctx.elicitUrl) return { status: 'waiting' as const, waitedMs: 0, url, title: '' };
    return endedResult(ctx, pending, await elicitAndWait(ctx, ctx.elicitUrl, pending, url, ctx.call.signal));
  },
});

function pageOf(pages: ManagedPage[], pageId: string | undefined): ManagedPage {
  const page =
    pageId === undefined ? (pages.find((p) => p.isDefault) ?? pages[0]) : pages.find((p) => p.id === pageId);
  if (!page) {
    throw new BrowserMeshError(ErrorCodes.PAGE_NOT_FOUND, 'No such page in this session', {
      details: { field: 'pageId' },
    });
  }
  return page;
}

function waiting(ctx: ToolContext, pending: Handoff) {
  const base = ctx.services.dashboardUrl?.() ?? '';
  return {
    status: 'waiting' as const,
    waitedMs: Date.now() - pending.since,
    url: takeoverUrl(base, pending),
    title: '',
  };
}

function nothingPending(): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'sessionId: no request for a person to wait for', {
    details: { field: 'sessionId' },
    recoveryHint: 'Ask first: browser_request_human with a reason.',
  });
}
