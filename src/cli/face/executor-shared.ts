import type { InvokeResult } from '../../tools/invoke.js';
import type { CliResponse } from './protocol.js';

/** A named session as the daemon knows it: the engine's ids and this name's current tab. */
export interface NamedSession {
  sessionId: string;
  pageId: string;
}

/** What the executor's helpers need: one tool call by name, on the one call path. */
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<InvokeResult>;

/** What the executor's helpers see of it (an interface, so helpers and executor import no cycle). */
export interface ExecutorView {
  readonly named: Map<string, NamedSession>;
  readonly call: CallTool;
  answer(name: string, result: InvokeResult): CliResponse;
}

export function toError(result: Extract<InvokeResult, { ok: false }>): CliResponse {
  const { code, message, recoveryHint } = result.error;
  const hint = recoveryHint === undefined ? undefined : toCommandWords(recoveryHint);
  return {
    ok: false,
    code,
    message: toCommandWords(message),
    ...(hint ? { hint } : {}),
    structured: result.error,
  };
}

/** The commands that stand for the tools hints name, so a hint reads as something to type. */
const COMMAND_OF: Readonly<Record<string, string>> = {
  browser_snapshot: 'browsermesh snapshot',
  browser_navigate: 'browsermesh goto',
  browser_session_create: 'browsermesh open',
  browser_page_list: 'browsermesh tabs',
  browser_files: 'browsermesh files',
  browser_wait: 'browsermesh wait',
  browser_visible_text: 'browsermesh text',
  browser_observe: 'browsermesh console / requests',
  browser_state_list: 'browsermesh state list',
  browser_run: 'browsermesh run',
  browser_find: 'browsermesh find',
  browser_route: 'browsermesh route-list',
  browser_cookies: 'browsermesh cookie-list',
};

function toCommandWords(text: string): string {
  return text
    .replace(/\bbrowser_[a-z_]+\b/g, (name) => COMMAND_OF[name] ?? name)
    .replace(/\btimeoutMs\b/g, '--timeout');
}
