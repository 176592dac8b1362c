/**
 * One error type for the whole runtime. Every failure that crosses a public boundary (MCP result,
 * AgentBrowser tool result, library call) is a `BrowserMeshError` with a stable string `code` and a
 * message that is safe to show: it never contains page content, cookies, tokens, form values or
 * saved state. Raw causes stay on `cause` and never cross the boundary.
 */

export const ErrorCodes = {
  /** No session with that id is known (or it belongs to another client). */
  SESSION_NOT_FOUND: 'SESSION_NOT_FOUND',
  /** The session is closing or closed and accepts no new operations. */
  SESSION_CLOSED: 'SESSION_CLOSED',
  /** The session failed (its browser went away) and cannot run operations. */
  SESSION_FAILED: 'SESSION_FAILED',
  /** No page with that id exists in that session. */
  PAGE_NOT_FOUND: 'PAGE_NOT_FOUND',
  /** An argument is invalid; `details.field` names it. */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The operation's absolute deadline passed (queue wait included). */
  OPERATION_TIMEOUT: 'OPERATION_TIMEOUT',
  /** The caller cancelled the operation. */
  OPERATION_CANCELLED: 'OPERATION_CANCELLED',
  /** A navigation did not complete (network error, bad host, aborted). */
  NAVIGATION_FAILED: 'NAVIGATION_FAILED',
  /** The URL policy refused a destination (origin lists, link-local/metadata, private networks). */
  NAVIGATION_BLOCKED: 'NAVIGATION_BLOCKED',
  /** The browser refused or failed an operation. */
  BROWSER_ERROR: 'BROWSER_ERROR',
  /** The browser process or connection went away. */
  BROWSER_DISCONNECTED: 'BROWSER_DISCONNECTED',
  /** A configured limit (sessions, pages, sizes, quotas) would be exceeded. */
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
  /** A snapshot ref no longer points at a live element of the same document. */
  STALE_ELEMENT_REFERENCE: 'STALE_ELEMENT_REFERENCE',
  /** A locator matched no element within its short search window. */
  ELEMENT_NOT_FOUND: 'ELEMENT_NOT_FOUND',
  /** A locator matched more than one element. */
  LOCATOR_AMBIGUOUS: 'LOCATOR_AMBIGUOUS',
  /** The element exists but cannot be acted on (hidden, disabled, covered, wrong kind). */
  ELEMENT_NOT_INTERACTABLE: 'ELEMENT_NOT_INTERACTABLE',
  /** A snapshot or observability cursor expired or was invalidated. */
  CURSOR_INVALID: 'CURSOR_INVALID',
  /** A saved state id is unknown. */
  STATE_NOT_FOUND: 'STATE_NOT_FOUND',
  /** A saved state file is unreadable or corrupted. */
  STATE_CORRUPTED: 'STATE_CORRUPTED',
  /** Persistence is switched off by configuration. */
  PERSISTENCE_DISABLED: 'PERSISTENCE_DISABLED',
  /** A code-mode script failed (syntax, runtime, sandbox limit). */
  SCRIPT_ERROR: 'SCRIPT_ERROR',
  /** No file with that id exists in the session's file folder (or it was removed). */
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  /** The session already waits for a person (browser_request_human); wait for that one instead. */
  HUMAN_REQUEST_PENDING: 'HUMAN_REQUEST_PENDING',
  /** A tool or feature is not available in this configuration. */
  NOT_SUPPORTED: 'NOT_SUPPORTED',
  /** An unexpected failure inside BrowserMesh. */
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export type ErrorDetails = Record<string, string | number | boolean | null | string[] | number[]>;

export interface BrowserMeshErrorOptions {
  details?: ErrorDetails;
  cause?: unknown;
  /** A short hint that tells an agent what to do next. */
  recoveryHint?: string;
}

export class BrowserMeshError extends Error {
  override readonly name = 'BrowserMeshError';
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  readonly recoveryHint: string | undefined;

  constructor(code: ErrorCode, message: string, options: BrowserMeshErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.recoveryHint = options.recoveryHint;
  }

  /** Whether repeating the same call could succeed without changing it. */
  get canRetry(): boolean {
    return RETRYABLE.has(this.code);
  }
}

const RETRYABLE = new Set<ErrorCode>([
  ErrorCodes.OPERATION_TIMEOUT,
  ErrorCodes.OPERATION_CANCELLED,
  ErrorCodes.NAVIGATION_FAILED,
  ErrorCodes.BROWSER_ERROR,
  ErrorCodes.ELEMENT_NOT_FOUND,
  ErrorCodes.ELEMENT_NOT_INTERACTABLE,
]);

export function isBrowserMeshError(value: unknown): value is BrowserMeshError {
  return value instanceof BrowserMeshError;
}

/** Shorthand for the most common failure: a bad argument, naming the field. */
export function invalidArgument(field: string, message: string): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, `${field}: ${message}`, { details: { field } });
}

/**
 * An id for an error message or details: one shaped like the ids this server issues (`s_` + 10
 * letters, `p` + a number, `op_` + 7 letters; see engine/ids.ts) comes back as it is; anything else
 * is a caller's arbitrary text and is never echoed.
 */
export function safeId(id: string): string {
  return ISSUED_ID.test(id) ? id : '(not an id this server issued)';
}

/** The shapes engine/ids.ts `newId` issues. */
const ISSUED_ID = /^(?:s_[a-z]{10}|p[1-9]\d{0,14}|op_[a-z]{7})$/;

/** The safe, serializable shape of an error as it crosses a boundary. */
export interface SerializedError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
  recoveryHint?: string;
  canRetry: boolean;
  operationId?: string;
}

const MAX_MESSAGE_CHARS = 500;

/**
 * Converts any thrown value into the safe boundary shape. Unknown errors become INTERNAL_ERROR with a
 * generic message: their text may carry page content or secrets, so it is never passed on.
 */
export function toSerializedError(error: unknown, operationId?: string): SerializedError {
  const known = isBrowserMeshError(error)
    ? error
    : new BrowserMeshError(ErrorCodes.INTERNAL_ERROR, 'Unexpected internal error', { cause: error });
  const out: SerializedError = {
    code: known.code,
    message: truncate(known.message, MAX_MESSAGE_CHARS),
    canRetry: known.canRetry,
  };
  if (known.details !== undefined) out.details = known.details;
  if (known.recoveryHint !== undefined) out.recoveryHint = known.recoveryHint;
  if (operationId !== undefined) out.operationId = operationId;
  return out;
}

function truncate(text: string, maxChars: number): string {
  const chars = Array.from(text);
  return chars.length <= maxChars ? text : `${chars.slice(0, maxChars - 1).join('')}…`;
}
