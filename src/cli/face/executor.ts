import type { Logger } from '../../engine/logger.js';
import type { BrowserMesh } from '../../engine/runtime.js';
import type { AnyTool } from '../../tools/define.js';
import { invokeTool, type InvokeResult } from '../../tools/invoke.js';
import type { Services } from '../../tools/services.js';
import { fetchFile } from './executor-files.js';
import { toError, type CallTool, type NamedSession } from './executor-shared.js';
import { closeNamed, listNamed, listTabs, tabsAction, unroute } from './executor-tabs.js';
import type { CliAction, CliRequest, CliResponse } from './protocol.js';

/**
 * Turns shell commands into tool calls. Every browser step is an `invokeTool` call on a tool
 * definition, exactly as the MCP server makes it; this file only maps session names to ids (and each
 * name to its current tab) and shapes the answer for a terminal.
 */
export class CliExecutor {
  readonly named = new Map<string, NamedSession>();
  private readonly opening = new Map<string, Promise<NamedSession | CliResponse>>();

  constructor(
    private readonly mesh: BrowserMesh,
    private readonly services: Services,
    private readonly tools: ReadonlyMap<string, AnyTool>,
    private readonly logger: Logger,
    /** Why a tool is missing and how to get it (its profile is not among the daemon's). */
    private readonly missing: (name: string) => string,
  ) {}

  readonly call: CallTool = async (name, args) => {
    const tool = this.tools.get(name);
    if (!tool) {
      return {
        ok: false,
        operationId: '',
        error: {
          code: 'NOT_SUPPORTED',
          message: `${name} is not served by this daemon`,
          recoveryHint: this.missing(name),
          canRetry: false,
        },
      };
    }
    return invokeTool(tool, args, { mesh: this.mesh, services: this.services, logger: this.logger });
  };

  async execute(request: CliRequest): Promise<CliResponse> {
    const { action, session } = request;
    switch (action.kind) {
      case 'sessions':
        return action.action === 'list' ? listNamed(this) : closeNamed(this, action.name ?? '');
      case 'close':
        return closeNamed(this, session);
      case 'state-load':
        return this.stateLoad(session, action.stateId);
      case 'daemon':
        return { ok: true, text: '' };
      default:
        break;
    }
    const opened = await this.open(session);
    if ('ok' in opened) return opened;
    return this.onSession(session, opened, action);
  }

  private async onSession(name: string, named: NamedSession, action: CliAction): Promise<CliResponse> {
    const page = { sessionId: named.sessionId, pageId: named.pageId };
    switch (action.kind) {
      case 'open':
        if (action.url === undefined) return listTabs(this, name, named, `session ${name} open`);
        return this.answer(name, await this.call('browser_navigate', { ...page, url: action.url }));
      case 'tabs':
        return tabsAction(this, name, named, action);
      case 'file':
        return fetchFile(this.call, page, action);
      case 'tool': {
        const address =
          action.address === 'page'
            ? page
            : action.address === 'session'
              ? { sessionId: named.sessionId }
              : {};
        const here = action.pageUrl === undefined ? undefined : await this.pageUrl(name, page);
        if (typeof here === 'object') return here;
        const defaults = action.pageUrl === undefined || here === undefined ? {} : { [action.pageUrl]: here };
        return this.answer(name, await this.call(action.tool, { ...address, ...defaults, ...action.args }));
      }
      case 'unroute':
        return unroute(this, name, named, action.url);
      default:
        return { ok: false, code: 'INVALID_ARGUMENT', message: 'not a session command' };
    }
  }

  /** The current tab's URL, or the error of reading it. */
  private async pageUrl(name: string, page: NamedSession): Promise<string | CliResponse> {
    const result = await this.call('browser_get_url', { ...page });
    if (!result.ok) return this.answer(name, result);
    return (result.structured as { url: string }).url;
  }

  /** The named session, created on first use; two commands racing to create it get the same one. */
  async open(name: string, stateId?: string): Promise<NamedSession | CliResponse> {
    const known = this.named.get(name);
    if (known) return known;
    let pending = this.opening.get(name);
    if (!pending) {
      pending = this.create(name, stateId).finally(() => this.opening.delete(name));
      this.opening.set(name, pending);
    }
    return pending;
  }

  private async create(name: string, stateId?: string): Promise<NamedSession | CliResponse> {
    const result = await this.call('browser_session_create', { name, ...(stateId ? { stateId } : {}) });
    if (!result.ok) return toError(result);
    const { session, initialPage } = result.structured as {
      session: { sessionId: string };
      initialPage: { pageId: string };
    };
    const named = { sessionId: session.sessionId, pageId: initialPage.pageId };
    this.named.set(name, named);
    return named;
  }

  /** `state load`: the session restarts from the saved state (cookies and storage are set at creation). */
  private async stateLoad(name: string, stateId: string): Promise<CliResponse> {
    if (this.named.has(name)) {
      const closed = await closeNamed(this, name);
      if (!closed.ok) return closed;
    }
    const opened = await this.open(name, stateId);
    if ('ok' in opened) return opened;
    return { ok: true, text: `session ${name} restarted from state ${stateId}`, structured: opened };
  }

  /** A tool result as the terminal shows it; a session that ended is forgotten, so the next command opens a new one. */
  answer(name: string, result: InvokeResult): CliResponse {
    if (result.ok) return { ok: true, text: result.text, structured: result.structured };
    if (['SESSION_NOT_FOUND', 'SESSION_CLOSED', 'SESSION_FAILED'].includes(result.error.code))
      this.named.delete(name);
    return toError(result);
  }
}
