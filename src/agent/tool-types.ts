import { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type { ViewContent } from '../tools/define.js';
import type { OperationContext, PageOperationContext } from '../engine/runtime.js';
import type { BrowserToolName } from './options.js';
import type { ThreadView } from './threads.js';

/** Per-call context a framework passes along: which conversation thread, and cancellation. */
export interface ToolCallContext {
  /** The conversation thread; absent means the default thread. */
  threadId?: string | undefined;
  /** Aborts the call: skipped if still queued, stopped if running. */
  signal?: AbortSignal | undefined;
}

/** A failed call, as data the model can act on. The next call works as usual. */
export type ToolErrorResult = {
  error: {
    code: ErrorCode;
    message: string;
    /** The same details as over MCP (e.g. `{ reason: 'disabled' }`). */
    details?: Record<string, unknown> | undefined;
    recoveryHint?: string | undefined;
    canRetry: boolean;
    /** The call's id, as in its log line and the dashboard activity. */
    operationId?: string | undefined;
  };
};

export const ToolErrorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
      recoveryHint: z.string().optional(),
      canRetry: z.boolean(),
      operationId: z.string().optional(),
    }),
  })
  .describe('The call failed; nothing else was done. Read recoveryHint.');

/** What a model should see of a result: text and images, instead of a JSON dump. */
export type ModelContent = ViewContent;

/**
 * One tool as `getTools()` returns it: plain data plus `execute`, with zod input and output schemas,
 * ready for any framework (the adapters wrap these records). `execute` never throws for a bad input
 * or a failed browser operation: it resolves with `{ error }` instead.
 */
export interface AgentTool {
  id: BrowserToolName;
  description: string;
  inputSchema: z.ZodObject;
  /** The success shape or `{ error }`. */
  outputSchema: z.ZodType;
  execute(input: unknown, context?: ToolCallContext): Promise<Record<string, unknown>>;
  /** Text for a snapshot, an image for a screenshot, compact JSON otherwise. */
  toModelContent(output: Record<string, unknown>): ModelContent;
}

export type AgentTools = Partial<Record<BrowserToolName, AgentTool>>;

/** What a tool handler gets for one call. */
export interface ToolCall {
  readonly threadId: string;
  readonly signal: AbortSignal | undefined;
  /** The call's one id: every queued operation of the call runs under it. */
  readonly operationId: string;
  /** The thread's view, launching the browser and creating the thread's session when needed. */
  view(): Promise<ThreadView>;
  /** Runs `fn` on the thread's current tab, in the session's queue, under one deadline. */
  onPage<T>(
    op: string,
    fn: (ctx: PageOperationContext, view: ThreadView) => Promise<T>,
    timeoutMs?: number,
  ): Promise<T>;
  /** Runs `fn` in the session's queue (tab management), under one deadline. */
  onSession<T>(
    op: string,
    fn: (ctx: OperationContext, view: ThreadView) => Promise<T>,
    timeoutMs?: number,
  ): Promise<T>;
}

export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: BrowserToolName;
  description: string;
  input: I;
  /** The success shape (the published output schema adds `{ error }`). */
  output: O;
  handler(args: z.output<I>, call: ToolCall): Promise<z.output<O>>;
  toModelContent?(output: z.output<O>): ModelContent;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry of specs of every shape
export type AnyToolSpec = ToolSpec<z.ZodObject<any>, z.ZodObject<any>>;

export function defineAgentTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<I, O>,
): ToolSpec<I, O> {
  return spec;
}
