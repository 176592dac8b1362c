import { z } from 'zod';
import { toSerializedError } from '../errors.js';
import type { Logger } from '../engine/logger.js';
import type { OperationContext } from '../engine/runtime.js';
import { newId } from '../engine/ids.js';
import { redactSecrets, redactSecretsDeep, type Secrets } from '../secrets.js';
import { fromZodError, toDownloadOutput } from '../tools/invoke.js';
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

/** What the runner needs from the AgentBrowser. */
export interface ToolHost {
  readonly logger: Logger;
  /** Values never returned: results and errors carry their `{{secret:NAME}}` reference instead. */
  readonly secrets: Secrets;
  /** The thread's view on a ready browser (launching or relaunching when needed). */
  viewFor(threadId: string): Promise<ThreadView>;
}

const MAX_THREAD_ID_CHARS = 256;

/**
 * Turns a spec into the tool record `getTools()` returns. Every per-call policy lives here, once:
 * input validation, thread resolution, cancellation, and errors turned into `{ error }` data.
 */
export function toAgentTool(spec: AnyToolSpec, host: ToolHost): AgentTool {
  return {
    id: spec.name,
    description: spec.description,
    inputSchema: spec.input,
    outputSchema: z.union([spec.output, ToolErrorSchema]),
    async execute(input: unknown, context: ToolCallContext = {}): Promise<Record<string, unknown>> {
      const started = Date.now();
      const operationId = newId('op');
      const parsed = spec.input.safeParse(input ?? {});
      if (!parsed.success) return errorResult(fromZodError(parsed.error), host.secrets);
      try {
        const call = createCall(host, threadIdOf(context.threadId), context.signal);
        const output = (await spec.handler(parsed.data, call)) as Record<string, unknown>;
        // As over MCP: a download is reported on the result of the call that caused it.
        if (call.downloads.length > 0 && 'downloads' in spec.output.shape)
          output.downloads = call.downloads.map(toDownloadOutput);
        host.logger.debug('agent_tool_call', {
          tool: spec.name,
          operationId,
          durationMs: Date.now() - started,
        });
        // Secret values the page echoed (a field's value, a read, a URL) go back as references.
        return redactSecretsDeep(host.secrets, output);
      } catch (error) {
        const result = errorResult(error, host.secrets);
        host.logger.info('agent_tool_error', {
          tool: spec.name,
          operationId,
          durationMs: Date.now() - started,
          code: result.error.code,
        });
        return result;
      }
    },
    toModelContent(output: Record<string, unknown>): ModelContent {
      if (isToolError(output) || !spec.toModelContent)
        return [{ type: 'text', text: JSON.stringify(output) }];
      return spec.toModelContent(output);
    },
  };
}

export function isToolError(output: unknown): output is ToolErrorResult {
  return (
    typeof output === 'object' && output !== null && 'error' in output && typeof output.error === 'object'
  );
}

/** The safe error shape: code, message, hint and retry flag; never a stack or page content. */
export function errorResult(error: unknown, secrets: Secrets = {}): ToolErrorResult {
  const serialized = toSerializedError(error);
  return {
    error: {
      code: serialized.code,
      message: redactSecrets(secrets, serialized.message),
      ...(serialized.recoveryHint === undefined
        ? {}
        : { recoveryHint: redactSecrets(secrets, serialized.recoveryHint) }),
      canRetry: serialized.canRetry,
    },
  };
}

function threadIdOf(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') return DEFAULT_THREAD_ID;
  return raw.length > MAX_THREAD_ID_CHARS ? raw.slice(0, MAX_THREAD_ID_CHARS) : raw;
}

function createCall(host: ToolHost, threadId: string, signal: AbortSignal | undefined): ToolCall {
  const view = (): Promise<ThreadView> => host.viewFor(threadId);
  const downloads: ToolCall['downloads'] = [];
  const collectDownloads = (thread: ThreadView, operationId: string): void => {
    downloads.push(...thread.mesh.takeDownloads(thread.sessionId, operationId));
  };
  const run = async <T>(
    op: string,
    fn: (ctx: OperationContext, thread: ThreadView) => Promise<T>,
    timeoutMs: number | undefined,
  ): Promise<T> => {
    const thread = await view();
    const operationId = newId('op');
    try {
      return await thread.mesh.run(thread.sessionId, op, (ctx) => fn(ctx, thread), {
        timeoutMs,
        signal,
        operationId,
      });
    } finally {
      collectDownloads(thread, operationId);
    }
  };
  return {
    threadId,
    signal,
    view,
    downloads,
    collectDownloads,
    onPage: (op, fn, timeoutMs) =>
      run(
        op,
        async (ctx, thread) => fn({ ...ctx, page: await thread.currentPage(ctx.session) }, thread),
        timeoutMs,
      ),
    onSession: (op, fn, timeoutMs) => run(op, fn, timeoutMs),
  };
}
