import { z } from 'zod';
import { toSerializedError } from '../errors.js';
import type { Logger } from '../engine/logger.js';
import { newId } from '../engine/ids.js';
import { redactSecrets, redactSecretsDeep, type Secrets } from '../secrets.js';
import { fromZodError } from '../tools/invoke.js';
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
  return {
    threadId,
    signal,
    view,
    async onPage(op, fn, timeoutMs) {
      const thread = await view();
      return thread.mesh.run(
        thread.sessionId,
        op,
        async (ctx) => {
          const page = await thread.currentPage(ctx.session);
          return fn({ ...ctx, page }, thread);
        },
        { timeoutMs, signal },
      );
    },
    async onSession(op, fn, timeoutMs) {
      const thread = await view();
      return thread.mesh.run(thread.sessionId, op, (ctx) => fn(ctx, thread), { timeoutMs, signal });
    },
  };
}
