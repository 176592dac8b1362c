import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode as McpErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
  type GetPromptResult,
  type Prompt,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Two static workflow prompts. They render text from their arguments and the published tools only:
 * no model call, no per-client state. A prompt is offered only when the tools it relies on are.
 */
interface PromptSpec {
  prompt: Prompt;
  requires: string[];
  render(args: Record<string, string>, tools: ReadonlySet<string>): string;
}

const MAX_ARG_CHARS = 4000;

const parallelRoles: PromptSpec = {
  prompt: {
    name: 'parallel_roles',
    title: 'Parallel roles',
    description: 'Work on one task as several roles at once, one isolated browser session per role.',
    arguments: [
      {
        name: 'task',
        description: 'What to do, e.g. check out as the buyer and confirm the order as the admin.',
        required: true,
      },
      {
        name: 'roles',
        description: 'Comma-separated roles, e.g. buyer,admin (default: the roles the task names).',
      },
    ],
  },
  requires: ['browser_session_create', 'browser_session_close'],
  render(args, tools) {
    const roles = args.roles?.trim() ? args.roles.trim() : 'the roles the task names';
    const read = tools.has('browser_snapshot')
      ? 'browser_snapshot (act on its refs)'
      : 'browser_visible_text';
    const lines = [
      `Task: ${args.task ?? ''}`,
      `Roles: ${roles}`,
      '',
      'Work on it with one isolated BrowserMesh session per role:',
      '1. For each role call browser_session_create with name=<role> and metadata {"role":"<role>"}; keep its sessionId and initial pageId.',
      tools.has('browser_state_list')
        ? '   If browser_state_list shows a saved login for a role, pass it as stateId to start logged in.'
        : '',
      '2. Pass that sessionId (and pageId) on every call: there is no current session. Different roles may run in parallel; one role runs in order.',
      `3. Read pages with ${read}. When one role must see another's result (an order placed, then confirmed), finish it first, then check from the other session.`,
      tools.has('browser_state_save')
        ? '4. To reuse a login later, call browser_state_save with that session and a stateId.'
        : '',
      'Finally close every session with browser_session_close and report the outcome per role with the evidence you saw.',
    ];
    return lines.filter((line) => line !== '').join('\n');
  },
};

const diagnosePage: PromptSpec = {
  prompt: {
    name: 'diagnose_page',
    title: 'Diagnose page',
    description:
      "Load a page and collect its console, page error and network evidence to explain what's wrong.",
    arguments: [{ name: 'url', description: 'The http(s) URL to diagnose.', required: true }],
  },
  requires: ['browser_session_create', 'browser_navigate', 'browser_observe', 'browser_session_close'],
  render(args, tools) {
    const read = tools.has('browser_snapshot') ? 'browser_snapshot' : 'browser_visible_text';
    return [
      `Diagnose ${args.url ?? ''}`,
      '',
      '1. browser_session_create (name "diagnose"); keep sessionId and pageId.',
      '2. browser_navigate to the URL; note the HTTP status.',
      '3. browser_observe for each source with sinceEventId 0: console and pageError with includeText true, then network and requestFailed. Follow nextCursor while hasMore.',
      '4. Check gap and droppedCount before concluding an error did not happen.',
      `5. Look for HTTP statuses >= 400, transport failures, uncaught errors and console errors; relate them to what the page shows (${read}).`,
      '6. browser_session_close. Report what is broken, the evidence (event ids, URLs, statuses) and the likely cause. Never quote cookies, tokens or other secrets.',
    ].join('\n');
  },
};

const PROMPTS = [parallelRoles, diagnosePage];

/** `publishedTools` is asked when a prompt request comes: the tools load after `initialize`. */
export function registerPrompts(server: Server, publishedTools: () => Promise<ReadonlySet<string>>): void {
  const offeredBy = (tools: ReadonlySet<string>): PromptSpec[] =>
    PROMPTS.filter((spec) => spec.requires.every((name) => tools.has(name)));

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: offeredBy(await publishedTools()).map((spec) => spec.prompt),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const tools = await publishedTools();
    const spec = offeredBy(tools).find((offered) => offered.prompt.name === request.params.name);
    if (!spec)
      throw new McpError(McpErrorCode.InvalidParams, `Unknown prompt: ${request.params.name.slice(0, 64)}`);
    const args = checkArguments(spec, request.params.arguments ?? {});
    return {
      description: spec.prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: spec.render(args, tools) } }],
    };
  });
}

/** Required arguments present, every value bounded and single-line; diagnose_page's url is http(s). */
function checkArguments(spec: PromptSpec, args: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arg of spec.prompt.arguments ?? []) {
    const value = args[arg.name];
    if (value === undefined || value.trim() === '') {
      if (arg.required) throw new McpError(McpErrorCode.InvalidParams, `Missing argument: ${arg.name}`);
      continue;
    }
    if (value.length > MAX_ARG_CHARS)
      throw new McpError(McpErrorCode.InvalidParams, `${arg.name}: at most ${MAX_ARG_CHARS} characters`);
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    out[arg.name] = value.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  }
  if (out.url !== undefined && !isHttpUrl(out.url))
    throw new McpError(McpErrorCode.InvalidParams, 'url: must be an absolute http(s) URL');
  return out;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
