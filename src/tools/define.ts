import type { z } from 'zod';
import type { Config, ToolProfile } from '../config/load.js';
import type { BrowserMesh, CallOptions } from '../engine/runtime.js';
import type { Services } from './services.js';

/** MCP risk hints: advisory for clients, never used for authorization. */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * Tells the caller how a long call is getting on (MCP `notifications/progress`, sent only when the
 * client gave a progressToken). Messages are short and never carry page content or argument values.
 */
export type ProgressSink = (message: string) => void;

/** What a handler gets: the runtime, per-call options (deadline, cancellation, owner) and shared services. */
export interface ToolContext {
  mesh: BrowserMesh;
  services: Services;
  /** Pass straight to `mesh.run*`: carries operationId, timeoutMs, signal and owner. */
  call: CallOptions & { operationId: string };
  /** Progress for a long call; absent when nobody listens. */
  progress?: ProgressSink | undefined;
  /** Folders the client declared as its roots (MCP `roots`), resolved to local paths; [] when none. */
  clientRoots?: () => Promise<string[]>;
  /** The conversation thread of a face that has them (AgentBrowser); absent over MCP. */
  threadId?: string;
  /** URL-mode elicitation, when the MCP client declared it (browser_request_human); absent otherwise. */
  elicitUrl?: UrlElicitation;
}

/**
 * Asks the client's user to open a URL (MCP `elicitation/create`, `mode: "url"`). `ask` resolves
 * with the user's answer to opening it; `complete` sends `notifications/elicitation/complete`.
 */
export interface UrlElicitation {
  ask(params: {
    elicitationId: string;
    url: string;
    message: string;
  }): Promise<'accept' | 'decline' | 'cancel'>;
  complete(elicitationId: string): Promise<void>;
}

/** The session and page a face other than MCP resolved for a call (AgentBrowser: the thread's tab). */
export interface FaceAddress {
  sessionId: string;
  pageId: string;
}

/**
 * A tool as AgentBrowser names and shapes it (seed 000): an argument mapping onto the tool's own
 * input and, where seed 000's result differs from the tool's, a mapping of the result. Validation,
 * the handler and every per-call rule stay the definition's (invokeTool).
 */
export interface AgentView<
  A extends z.ZodObject = z.ZodObject,
  N extends string = string,
  R extends z.ZodObject = z.ZodObject,
> {
  /** Kept as its literal type, so AgentBrowser's `BrowserToolName` is read from the definitions. */
  name: N;
  description: string;
  /** Seed 000's argument shape, validated before the mapping. */
  input: A;
  /** The view's arguments as the tool's own, addressed to the thread's session and tab. */
  toArgs(args: z.output<A>, at: FaceAddress): Record<string, unknown>;
  /** Seed 000's result shape (the published outputSchema), when it is not the definition's output. */
  output?: R;
  /** Seed 000's result from the definition's (default: its structured fields, `images` when any). */
  toResult?(out: ViewOutput, args: z.output<A>): z.output<R>;
  /** What the model reads of a result (default: compact JSON). */
  toModelContent?(result: z.output<R>): ViewContent;
}

/** The definition's result as invokeTool shaped it (secrets already redacted), for a view's `toResult`. */
export interface ViewOutput {
  structured: Record<string, unknown>;
  images: Array<{ data: string; mimeType: string }>;
  resources: EmbeddedBlob[];
}

/** What a model should see of a result: text and images, instead of a JSON dump. */
export type ViewContent = Array<
  { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: 'image/png' | 'image/jpeg' }
>;

/** A handler may return just its structured fields, or add an image and/or a custom text block. */
export interface ToolOutput<O> {
  structured: O;
  /** Replaces the default compact-JSON text block (e.g. a snapshot's own text, never JSON-escaped). */
  text?: string;
  images?: Array<{ data: string; mimeType: 'image/png' | 'image/jpeg' }>;
  /** Binary content as MCP embedded resources (base64 `blob`), e.g. a downloaded file read back. */
  resources?: EmbeddedBlob[];
}

export interface EmbeddedBlob {
  uri: string;
  mimeType: string;
  blob: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds tools of every shape
export type AnyTool = ToolDefinition<z.ZodObject<any>, z.ZodObject<any>, string>;

/** `N`: the name of its AgentBrowser view (`never` when AgentBrowser does not offer it). */
export interface ToolDefinition<I extends z.ZodObject, O extends z.ZodObject, N extends string = never> {
  name: string;
  title: string;
  /** What the tool does and when to use it, in one or two sentences. */
  description: string;
  profile: ToolProfile;
  /** Further profiles that also publish this tool (e.g. `code` needs sessions and a snapshot to stand alone). */
  alsoIn?: readonly ToolProfile[];
  input: I;
  /** Structured result fields, without operationId (added to every result). */
  output: O;
  hints: ToolHints;
  /** Whether `timeoutMs` is accepted (added to the input schema). Defaults to true. */
  timeout?: boolean;
  handler(args: z.infer<I>, ctx: ToolContext): Promise<z.infer<O> | ToolOutput<z.infer<O>>>;
  /** Rebuilds the tool for a configuration whose limits appear in its schema, so schema and runtime agree. */
  configure?(config: Config): AnyTool;
  /** Its AgentBrowser view (seed 000's name and arguments), when AgentBrowser offers it. */
  agent?: AgentView<z.ZodObject, N>;
  /** false: a definition MCP never lists (AgentBrowser-only tools: dialog, tabs, close, record). */
  publish?: boolean;
  /**
   * What it adds to code mode: the host-side runners of its facade ops and its `browser_run` steps,
   * built with `codeParts` (src/tools/code-parts.ts, which types them). The facade op's parser stays
   * in src/code-mode/facade-parse.ts: it runs in the sandbox worker, which must not load the engine.
   */
  code?: CodeParts;
}

declare const codePartsBrand: unique symbol;

/**
 * Opaque here, typed in code-parts.ts: the step and runner types import schemas that import this
 * file, and this file must stay a leaf of src/tools (no import cycle).
 */
export interface CodeParts {
  readonly [codePartsBrand]: true;
}

/** Erases a view's argument and result types so any definition can carry it (the view validates its own input). */
export function agentView<A extends z.ZodObject, const N extends string, R extends z.ZodObject = z.ZodObject>(
  view: AgentView<A, N, R>,
): AgentView<z.ZodObject, N> {
  return view as unknown as AgentView<z.ZodObject, N>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject, N extends string = never>(
  tool: ToolDefinition<I, O, N>,
): ToolDefinition<I, O, N> {
  return tool;
}

/**
 * The AgentBrowser view name of a definition, as its literal type; none for a definition typed only
 * as AnyTool (its view, if any, must be named where the literal is known).
 */
export type AgentViewName<T> = T extends { agent?: AgentView<z.ZodObject, infer N> }
  ? string extends N
    ? never
    : N
  : never;

export function isToolOutput<O>(value: unknown): value is ToolOutput<O> {
  return typeof value === 'object' && value !== null && 'structured' in value;
}

export const READ_ONLY: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const ACTION: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
};
export const IDEMPOTENT_ACTION: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const DESTRUCTIVE: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
