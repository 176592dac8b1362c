import { int, opt, options, str, type Raw } from './validate-helpers.js';

/**
 * `human.request(reason, { timeoutMs })`: ask a person to act on the page (a sign-in, a CAPTCHA)
 * and wait, inside the running script, until they hand back.
 */

/** The same bounds as browser_request_human's reason and timeout. */
const MAX_REASON_CHARS = 500;
const MAX_WAIT_MS = 600_000;

export interface HumanRequestCall {
  op: 'humanRequest';
  reason: string;
  /** How long to wait for the person; the run's own deadline still bounds it. */
  timeoutMs?: number;
}

/** How the request ended and where the page is now: never what the person typed. */
export interface HumanRequestResult {
  status: 'returned' | 'timeout' | 'cancelled';
  waitedMs: number;
  url: string;
  title: string;
}

function humanRequest(m: string, a: Raw): HumanRequestCall {
  const reason = str(m, "argument 'reason'", a['reason'], MAX_REASON_CHARS);
  const o = options(m, a['options'], ['timeoutMs', 'timeout']);
  const call: HumanRequestCall = { op: 'humanRequest', reason };
  const timeoutMs = opt(o['timeoutMs'] ?? o['timeout'], (v) =>
    int(m, "option 'timeoutMs'", v, 1, MAX_WAIT_MS),
  );
  if (timeoutMs !== undefined) call.timeoutMs = timeoutMs;
  return call;
}

export const HUMAN_PARSERS = { humanRequest };
