import type { Runner, RunnerTable } from '../code-mode/backend-define.js';
import type { FacadeOp } from '../code-mode/facade-parse.js';
import { handoffsOf } from '../engine/handoff.js';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { ToolContext } from './define.js';
import { dashboardBase, elicitAndWait, endedResult, takeoverUrl } from './human-wait.js';

/**
 * Code mode's `human.request(reason, { timeoutMs })`. A script holds its session's queue for the
 * whole run, so the request waits inside that operation (never queued behind it, where it would
 * never start): the dashboard marks the session "needs you" and the take-over acts on the page
 * while the script's call waits.
 *
 * The person gets the link only through URL elicitation: a script cannot hand a link to its agent
 * before it returns, so without elicitation the call fails at once (NOT_SUPPORTED) rather than wait
 * for a person nobody told, and its hint names browser_request_human, which gives the link.
 */

/** The request ends this long before the run's deadline, so the script still gets its result. */
const RESULT_MARGIN_MS = 500;

/** The runner in the static code table: only browser_run can bind it to its call (below). */
export const HUMAN_REQUEST_UNBOUND: Runner<'humanRequest'> = () =>
  Promise.reject(
    new BrowserMeshError(ErrorCodes.NOT_SUPPORTED, 'human.request runs only in a browser_run script', {
      details: { field: 'human.request' },
      recoveryHint: 'Ask with browser_request_human instead.',
    }),
  );

/** `runners` with human.request bound to this browser_run call (its dashboard and elicitation). */
export function withHumanRequest(runners: RunnerTable, tool: ToolContext): RunnerTable {
  const table = new Map(runners);
  table.set('humanRequest', humanRequestRunner(tool) as Runner<FacadeOp>);
  return table;
}

function humanRequestRunner(tool: ToolContext): Runner<'humanRequest'> {
  return async (ctx, call) => {
    const base = dashboardBase(tool);
    const elicit = tool.elicitUrl;
    if (!elicit) {
      throw new BrowserMeshError(
        ErrorCodes.NOT_SUPPORTED,
        'human.request needs a client that opens links for its user (MCP URL elicitation): ask with browser_request_human outside the script',
        {
          details: { field: 'human.request' },
          recoveryHint:
            'End the script before that step, call browser_request_human (it gives a link to show your user), then run the rest.',
        },
      );
    }
    const leftMs = Math.min(call.timeoutMs ?? Infinity, ctx.deadline.remainingMs());
    const pending = handoffsOf(tool.mesh).open(ctx.session.id, ctx.page.id, call.reason, {
      timeoutMs: Math.max(1, leftMs - RESULT_MARGIN_MS),
      owner: tool.call.owner,
      principal: tool.call.principal,
      operationId: tool.call.operationId,
      heldBy: ctx.signal,
    });
    const outcome = await elicitAndWait(tool, elicit, pending, takeoverUrl(base, pending), undefined);
    return endedResult(tool, pending, outcome);
  };
}
