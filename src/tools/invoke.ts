import { z } from 'zod';
import { BrowserMeshError, ErrorCodes, toSerializedError, type SerializedError } from '../errors.js';
import { newId } from '../engine/ids.js';
import type { DownloadNote } from '../engine/files/downloads.js';
import type { Logger } from '../engine/logger.js';
import type { BrowserMesh } from '../engine/runtime.js';
import {
  isToolOutput,
  type AnyTool,
  type EmbeddedBlob,
  type FaceAddress,
  type ProgressSink,
  type UrlElicitation,
} from './define.js';
import { TimeoutMs } from './schemas.js';
import { redactSecrets, redactSecretsDeep } from '../secrets.js';
import { secretsFor } from '../config/principal-secrets.js';
import { redactArgumentValues } from './redact-args.js';
import { derivedSecretsOf } from '../redaction/derived.js';
import type { Services } from './services.js';
import { unknownFieldError } from './unknown-fields.js';

export interface InvokeContext {
  mesh: BrowserMesh;
  services: Services;
  logger: Logger;
  signal?: AbortSignal | undefined;
  owner?: string | undefined;
  /** Where step progress goes when the caller asked for it (MCP progressToken). */
  progress?: ProgressSink | undefined;
  principal?: string | undefined;
  /** The connected client's declared roots (MCP `roots`), for path uploads. */
  clientRoots?: (() => Promise<string[]>) | undefined;
  /** A face that minted the call's id before validating (AgentBrowser) passes it; else one is minted. */
  operationId?: string | undefined;
  /**
   * Where the call ran when its arguments do not say (AgentBrowser: the thread's session and tab),
   * read after the handler: downloads, activity and the log line are filed under it.
   */
  address?: (() => Partial<FaceAddress> | undefined) | undefined;
  /** The conversation thread (AgentBrowser), handed to the handler. */
  threadId?: string | undefined;
  /** URL-mode elicitation, when the MCP client declared it. */
  elicitUrl?: UrlElicitation | undefined;
}

export type InvokeResult =
  | {
      ok: true;
      operationId: string;
      structured: Record<string, unknown>;
      text: string;
      images: Array<{ data: string; mimeType: string }>;
      resources: EmbeddedBlob[];
    }
  | { ok: false; operationId: string; error: SerializedError };

const inputCache = new WeakMap<AnyTool, z.ZodObject>();

/** The input schema as published and enforced: the tool's own fields plus `timeoutMs` where accepted. */
export function inputSchemaOf(tool: AnyTool): z.ZodObject {
  let schema = inputCache.get(tool);
  if (!schema) {
    schema = tool.timeout === false ? tool.input : tool.input.extend({ timeoutMs: TimeoutMs.optional() });
    inputCache.set(tool, schema);
  }
  return schema;
}

export function outputSchemaOf(tool: AnyTool): z.ZodObject {
  return tool.output.extend({ operationId: z.string() });
}

/**
 * The one call path every face uses: validate → run → shape the result. Handler exceptions become
 * structured error results (never thrown to the transport); nothing but the safe error shape leaves.
 */
export async function invokeTool(tool: AnyTool, rawArgs: unknown, ctx: InvokeContext): Promise<InvokeResult> {
  const operationId = ctx.operationId ?? newId('op');
  const started = Date.now();
  const parsed = inputSchemaOf(tool).safeParse(rawArgs ?? {});
  if (!parsed.success) {
    return { ok: false, operationId, error: toSerializedError(fromZodError(parsed.error), operationId) };
  }
  const args = parsed.data as Record<string, unknown>;
  let sessionId = typeof args.sessionId === 'string' ? args.sessionId : undefined;
  let pageId = typeof args.pageId === 'string' ? args.pageId : undefined;
  const readAddress = (): void => {
    const at = ctx.address?.();
    sessionId ??= at?.sessionId;
    pageId ??= at?.pageId;
  };
  try {
    const { timeoutMs, ...toolArgs } = args;
    const out = await tool.handler(toolArgs, {
      mesh: ctx.mesh,
      services: ctx.services,
      call: {
        operationId,
        timeoutMs: timeoutMs as number | undefined,
        signal: ctx.signal,
        owner: ctx.owner,
        principal: ctx.principal,
        tool: tool.name,
      },
      progress: ctx.progress,
      ...(ctx.clientRoots ? { clientRoots: ctx.clientRoots } : {}),
      ...(ctx.threadId === undefined ? {} : { threadId: ctx.threadId }),
      ...(ctx.elicitUrl ? { elicitUrl: ctx.elicitUrl } : {}),
    });
    readAddress();
    const output = isToolOutput<Record<string, unknown>>(out)
      ? out
      : { structured: out as Record<string, unknown> };
    // Secret values the page echoed (a field's value in a snapshot, a read) go back as references.
    const secrets = secretsFor(ctx.mesh.config, ctx.principal);
    const derived = derivedSecretsOf(sessionId);
    const structured: Record<string, unknown> = redactSecretsDeep(
      secrets,
      { operationId, ...output.structured },
      derived,
    );
    if (sessionId !== undefined && 'downloads' in tool.output.shape) {
      const downloads = ctx.mesh.takeDownloads(sessionId, operationId, { owner: ctx.owner });
      if (downloads.length > 0) structured.downloads = downloads.map(toDownloadOutput);
      // A custom text block (a snapshot) would hide them otherwise.
      if (downloads.length > 0 && output.text !== undefined)
        output.text += `\ndownloads: ${JSON.stringify(structured.downloads)}`;
    }
    recordActivity(
      ctx,
      tool.name,
      operationId,
      started,
      null,
      sessionId ?? createdSessionId(structured),
      pageId,
    );
    ctx.logger.info('tool_call', {
      tool: tool.name,
      operationId,
      sessionId,
      pageId,
      durationMs: Date.now() - started,
    });
    return {
      ok: true,
      operationId,
      structured,
      text:
        output.text === undefined
          ? JSON.stringify(textView(structured))
          : redactSecrets(secrets, output.text, derived),
      images: output.images ?? [],
      resources: output.resources ?? [],
    };
  } catch (error) {
    readAddress();
    const secrets = secretsFor(ctx.mesh.config, ctx.principal);
    const serialized = redactSecretsDeep(
      secrets,
      redactArgumentValues(toSerializedError(error, operationId), args, Object.values(secrets)),
      derivedSecretsOf(sessionId),
    );
    recordActivity(ctx, tool.name, operationId, started, serialized.code, sessionId, pageId);
    ctx.logger.info('tool_error', {
      tool: tool.name,
      operationId,
      sessionId,
      pageId,
      durationMs: Date.now() - started,
      code: serialized.code,
    });
    return { ok: false, operationId, error: serialized };
  }
}

/**
 * The JSON a successful result's text block shows the model: what happened, without what it cannot
 * use. operationId is for programs and traces (structuredContent and every error carry it); an
 * action's `completed: true` is said by the result being a success, so it shows only when nothing
 * else would (a fill reads `{"completed":true}`, a navigating click `{"url":…,"settled":…}`).
 * Together ~15 tokens on every call.
 */
export function textView(structured: Record<string, unknown>): Record<string, unknown> {
  const { operationId: _omitted, ...rest } = structured;
  if (rest.completed !== true || Object.keys(rest).length === 1) return rest;
  const { completed: _said, ...shown } = rest;
  return shown;
}

/** What a watcher may see of a call: names, ids, timing and the error code — never arguments or results. */
function recordActivity(
  ctx: InvokeContext,
  tool: string,
  operationId: string,
  started: number,
  errorCode: string | null,
  sessionId: string | undefined,
  pageId: string | undefined,
): void {
  ctx.mesh.activity.record({
    operationId,
    tool,
    sessionId: sessionId ?? null,
    pageId: pageId ?? null,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    errorCode,
  });
}

/** browser_session_create names its session only in the result. */
function createdSessionId(structured: Record<string, unknown>): string | undefined {
  const session = structured.session;
  if (typeof session !== 'object' || session === null) return undefined;
  const id = (session as { sessionId?: unknown }).sessionId;
  return typeof id === 'string' ? id : undefined;
}

/** Names the first offending field (by path) without echoing the value, which may be a secret. */
export function fromZodError(error: z.ZodError): BrowserMeshError {
  const misspelled = unknownFieldError(error);
  if (misspelled) return misspelled;
  const issue = error.issues[0];
  const field =
    issue && issue.path.length > 0
      ? issue.path.map(toSafeKey).join('.')
      : issue?.code === 'unrecognized_keys'
        ? 'arguments'
        : '(root)';
  let message = issue?.message ?? 'invalid value';
  if (issue?.code === 'unrecognized_keys')
    message = `unknown field(s): ${issue.keys.slice(0, 5).map(toSafeKey).join(', ')}`;
  return new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, `${field}: ${message}`, {
    details: { field, issues: error.issues.length },
  });
}

/** A field name as it may appear in a message: plain names as they are, anything else as '?'. */
function toSafeKey(key: PropertyKey): string {
  const text = String(key);
  return /^[A-Za-z0-9_$-]{1,64}$/.test(text) ? text : '?';
}

/** The fields a result reports for a download (its folder path never leaves the server). */
export function toDownloadOutput(note: DownloadNote): Record<string, unknown> {
  const { downloadId, name, bytes, mimeType, state, errorCode } = note;
  return { downloadId, name, bytes, mimeType, state, ...(errorCode ? { errorCode } : {}) };
}
