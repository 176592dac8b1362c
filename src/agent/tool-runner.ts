import { z } from 'zod';
import { toSerializedError, type SerializedError } from '../errors.js';
import type { Logger } from '../engine/logger.js';
import type { BrowserMesh, OperationContext } from '../engine/runtime.js';
import type { Services } from '../tools/services.js';
import { newId } from '../engine/ids.js';
import { redactSecrets, type Secrets } from '../secrets.js';
import {
  IDEMPOTENT_ACTION,
  type AnyTool,
  type FaceAddress,
  type ToolContext,
  type ViewOutput,
} from '../tools/define.js';
import { fromZodError, invokeTool, type InvokeResult } from '../tools/invoke.js';
import { DEFAULT_THREAD_ID, type ThreadView } from './threads.js';
import {
  ToolErrorSchema,
  type AgentTool,
  type AnyToolSpec,
  type ModelContent,
  type ToolCall,
  type ToolCallContext,
  type ToolErrorResult,
} from './tool-types.js';
import type { BrowserToolName } from './options.js';

/** What the runner needs from the AgentBrowser. */
export interface ToolHost {
  readonly logger: Logger;
  /** Values never returned: results and errors carry their `{{secret:NAME}}` reference instead. */
  readonly secrets: Secrets;
  /** The thread's view on a ready browser (launching or relaunching when needed). */
  viewFor(threadId: string): Promise<ThreadView>;
  /** The thread's view when it already has one (never launches). */
  existingView(threadId: string): ThreadView | undefined;
  /** Services for a call on this runtime (the dashboard's URL when it is on). */
  servicesFor?(mesh: BrowserMesh): Promise<Services>;
}

/**
 * One AgentBrowser tool: a definition of the tool table (run by invokeTool, as over MCP) and, for a
 * tool MCP also offers, the view that maps seed 000's arguments onto the definition's.
 */
export interface AgentEntry {
  name: BrowserToolName;
  description: string;
  input: z.ZodObject;
  tool: AnyTool;
  toArgs?: ((args: Record<string, unknown>, at: FaceAddress) => Record<string, unknown>) | undefined;
  /** Seed 000's result shape, when it is not the definition's output. */
  output?: z.ZodObject | undefined;
  /** Seed 000's result from the definition's, when they differ. */
  toResult?: ((out: ViewOutput, args: Record<string, unknown>) => Record<string, unknown>) | undefined;
  /** false: the tool must not launch the browser to run (browser_close). */
  launches: boolean;
  toModelContent?: ((output: Record<string, unknown>) => ModelContent) | undefined;
}

const MAX_THREAD_ID_CHARS = 256;

/** An AgentBrowser view of a definition of the tool table (browser_click → the MCP browser_click). */
export function viewEntry(tool: AnyTool): AgentEntry | undefined {
  const view = tool.agent;
  if (!view) return undefined;
  return {
    name: view.name as BrowserToolName,
    description: view.description,
    input: view.input,
    tool,
    toArgs: (args, at) => view.toArgs(args, at),
    launches: true,
    output: view.output,
    toResult: view.toResult,
    toModelContent: view.toModelContent,
  };
}

/**
 * An AgentBrowser-only tool (dialog, tabs, close, record, …) as a definition of the same kind as
 * MCP's, which MCP does not publish: its handler gets the thread's calls on the session queue.
 */
export function agentOnlyEntry(spec: AnyToolSpec, host: ToolHost): AgentEntry {
  const tool: AnyTool = {
    name: spec.name,
    title: spec.name,
    description: spec.description,
    profile: 'core',
    publish: false,
    input: spec.input,
    output: spec.output,
    hints: IDEMPOTENT_ACTION,
    timeout: false,
    handler: (args, ctx) => spec.handler(args, createCall(host, ctx)),
  };
  return {
    name: spec.name,
    description: spec.description,
    input: spec.input,
    tool,
    launches: spec.name !== 'browser_close',
    toModelContent: spec.toModelContent as AgentEntry['toModelContent'],
  };
}

/**
 * Turns an entry into the tool record `getTools()` returns. Every per-call rule is invokeTool's
 * (validate → queue → redact → downloads → activity → log), under one operationId that the result,
 * the error, the log line and the dashboard activity share; this adds only the thread.
 */
export function toAgentTool(entry: AgentEntry, host: ToolHost): AgentTool {
  const output = (entry.output ?? entry.tool.output).extend({ operationId: z.string() });
  return {
    id: entry.name,
    description: entry.description,
    inputSchema: entry.input,
    outputSchema: z.union([output, ToolErrorSchema]),
    async execute(input: unknown, context: ToolCallContext = {}): Promise<Record<string, unknown>> {
      const operationId = newId('op');
      const threadId = threadIdOf(context.threadId);
      const parsed = entry.input.safeParse(input ?? {});
      if (!parsed.success) return errorResult(fromZodError(parsed.error), host.secrets, operationId);
      let thread: ThreadView | undefined;
      let at: FaceAddress | undefined;
      try {
        thread = entry.launches ? await host.viewFor(threadId) : host.existingView(threadId);
        if (thread && entry.toArgs) at = await addressOf(thread);
      } catch (error) {
        const result = errorResult(error, host.secrets, operationId);
        host.logger.info('tool_error', { tool: entry.tool.name, operationId, code: result.error.code });
        return result;
      }
      const args = entry.toArgs && at ? entry.toArgs(parsed.data, at) : parsed.data;
      if (!thread) return noBrowserCall(entry, args, threadId, operationId, host);
      const mesh: BrowserMesh = thread.mesh;
      const services = host.servicesFor ? await host.servicesFor(mesh).catch(() => ({})) : {};
      const result = await invokeTool(entry.tool, args, {
        mesh,
        services,
        logger: host.logger,
        signal: context.signal,
        operationId,
        threadId,
        address: () => at ?? addressNow(host, threadId),
      });
      return toAgentResult(result, host.secrets, (out) => entry.toResult?.(out, parsed.data));
    },
    toModelContent(output: Record<string, unknown>): ModelContent {
      if (isToolError(output) || !entry.toModelContent)
        return [{ type: 'text', text: JSON.stringify(output) }];
      return entry.toModelContent(output);
    },
  };
}

/**
 * The result invokeTool shaped, as AgentBrowser returns it: the view's mapping of it when it has one,
 * else the structured fields (with `images` when any); or `{ error }`.
 */
function toAgentResult(
  result: InvokeResult,
  secrets: Secrets,
  toResult: (out: ViewOutput) => Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!result.ok) return { error: toAgentError(result.error, secrets) };
  const mapped = toResult(result);
  if (mapped) return { operationId: result.operationId, ...mapped };
  return result.images.length > 0 ? { ...result.structured, images: result.images } : result.structured;
}

/** browser_close with no browser running: nothing to queue, nothing to close. */
async function noBrowserCall(
  entry: AgentEntry,
  args: Record<string, unknown>,
  threadId: string,
  operationId: string,
  host: ToolHost,
): Promise<Record<string, unknown>> {
  try {
    const ctx = { call: { operationId }, threadId } as unknown as ToolContext;
    const out = (await entry.tool.handler(args, ctx)) as Record<string, unknown>;
    host.logger.info('tool_call', { tool: entry.tool.name, operationId, durationMs: 0 });
    return { operationId, ...out };
  } catch (error) {
    return errorResult(error, host.secrets, operationId);
  }
}

/** The thread's tab for a call, before it is queued: the current one, or the one that took over. */
async function addressOf(thread: ThreadView): Promise<FaceAddress> {
  const session = thread.session();
  const page = session ? await thread.currentPage(session) : undefined;
  return { sessionId: thread.sessionId, pageId: page?.id ?? thread.currentPageId };
}

function addressNow(host: ToolHost, threadId: string): Partial<FaceAddress> | undefined {
  const view = host.existingView(threadId);
  return view ? { sessionId: view.sessionId, pageId: view.currentPageId } : undefined;
}

export function isToolError(output: unknown): output is ToolErrorResult {
  return (
    typeof output === 'object' && output !== null && 'error' in output && typeof output.error === 'object'
  );
}

/** The safe error shape (as over MCP): code, message, details, hint, retry flag and operationId. */
export function errorResult(error: unknown, secrets: Secrets = {}, operationId?: string): ToolErrorResult {
  return { error: toAgentError(toSerializedError(error, operationId), secrets) };
}

function toAgentError(serialized: SerializedError, secrets: Secrets): ToolErrorResult['error'] {
  const { code, message, recoveryHint, canRetry, details, operationId } = serialized;
  return {
    code,
    message: redactSecrets(secrets, message),
    ...(details === undefined ? {} : { details }),
    ...(recoveryHint === undefined ? {} : { recoveryHint: redactSecrets(secrets, recoveryHint) }),
    canRetry,
    ...(operationId === undefined ? {} : { operationId }),
  };
}

function threadIdOf(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') return DEFAULT_THREAD_ID;
  return raw.length > MAX_THREAD_ID_CHARS ? raw.slice(0, MAX_THREAD_ID_CHARS) : raw;
}

/** The calls an AgentBrowser-only handler makes, each on the session queue under the call's id. */
function createCall(host: ToolHost, ctx: ToolContext): ToolCall {
  const threadId = ctx.threadId ?? DEFAULT_THREAD_ID;
  const view = (): Promise<ThreadView> => host.viewFor(threadId);
  const run = async <T>(
    op: string,
    fn: (opCtx: OperationContext, thread: ThreadView) => Promise<T>,
    timeoutMs: number | undefined,
  ): Promise<T> => {
    const thread = await view();
    return thread.mesh.run(thread.sessionId, op, (opCtx) => fn(opCtx, thread), {
      ...ctx.call,
      timeoutMs: timeoutMs ?? ctx.call.timeoutMs,
    });
  };
  return {
    threadId,
    signal: ctx.call.signal,
    operationId: ctx.call.operationId,
    view,
    onPage: (op, fn, timeoutMs) =>
      run(
        op,
        async (opCtx, thread) => fn({ ...opCtx, page: await thread.currentPage(opCtx.session) }, thread),
        timeoutMs,
      ),
    onSession: (op, fn, timeoutMs) => run(op, fn, timeoutMs),
  };
}
